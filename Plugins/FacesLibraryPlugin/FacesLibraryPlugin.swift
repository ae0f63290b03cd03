// Builds libCaptureKitFaces.so, the OpenCV face shim (Sources/CFacesLoader/shim), for every build
// that includes CFacesLoader: this package's and that of any package depending on CaptureKit.
//
// The library is the command's output; SwiftPM treats an output that is not a source file as a
// resource of the target and copies it into CaptureKit_CFacesLoader.resources beside the
// executables, where ck_faces_loader.c opens it on the first face detection. Nothing links it,
// so processes that never look for faces do not load OpenCV.
//
// OpenCV's include path is found here instead of in Package.swift so that no target carries unsafe
// flags (which SwiftPM refuses in dependencies): `pkg-config --cflags opencv4` when Debian's
// libopencv-dev is installed, otherwise /usr/include/opencv4, where the libopencv-*-dev packages
// CaptureKit needs (libopencv-objdetect-dev, libopencv-imgproc-dev) put the headers.
import Foundation
import PackagePlugin

@main
struct FacesLibraryPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        // Target.directoryURL needs tools version 6.1; the package is 6.0.
        let folder = context.package.directoryURL.appending(path: "Sources/CFacesLoader")
        let shim = folder.appending(path: "shim")
        let source = shim.appending(path: "ck_faces.cpp")
        let headers = [shim.appending(path: "ck_faces_impl.h"), folder.appending(path: "include/ck_faces.h")]
        let library = context.pluginWorkDirectoryURL.appending(path: "libCaptureKitFaces.so")
        let compiler = try context.tool(named: "clang++")
        let arguments = ["-std=c++17", "-O2", "-g", "-fPIC", "-shared", "-Wall", "-Wno-unused-function",
                         "-I", folder.appending(path: "include").path, "-I", shim.path]
            + (try openCVCompilerFlags())
            + [source.path, "-o", library.path, "-Wl,-soname,libCaptureKitFaces.so", "-Wl,-z,defs", "-Wl,--as-needed",
               "-lopencv_objdetect", "-lopencv_imgproc", "-lopencv_core"]
        return [.buildCommand(displayName: "Building libCaptureKitFaces.so (OpenCV face shim)", executable: compiler.url,
                              arguments: arguments, inputFiles: [source] + headers, outputFiles: [library])]
    }

    /// The flags that find OpenCV 4's headers.
    private func openCVCompilerFlags() throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pkg-config", "--cflags", "opencv4"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        if (try? process.run()) != nil {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let flags = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
            if process.terminationStatus == 0, !flags.isEmpty { return flags }
        }
        let debian = "/usr/include/opencv4"
        guard FileManager.default.fileExists(atPath: debian + "/opencv2/objdetect.hpp") else {
            let message = "OpenCV 4 headers not found (pkg-config opencv4 or \(debian)/opencv2/objdetect.hpp): "
                + "install libopencv-objdetect-dev and libopencv-imgproc-dev (Debian; see scripts/apt-packages.txt)"
            Diagnostics.error(message)
            throw FacesLibraryError(message: message)
        }
        return ["-I", debian]
    }
}

struct FacesLibraryError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
