import Foundation
import Testing

/// `make`'s first step on a fresh machine: the package list chosen for the release, and the stop
/// with what to install when the Swift on PATH is missing or too old (Debian 13's swiftlang).
@Suite("set-up scripts")
struct SetupScriptTests {
    static let scripts = ReadmeCommandTests.root.appendingPathComponent("scripts")

    /// A stand-in `swift` that prints `version` as swift --version does.
    static func fakeSwift(_ version: String, in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("swift-\(version)")
        try "#!/bin/sh\necho \"Swift version \(version) (swift-\(version)-RELEASE)\"\necho \"Target: x86_64-unknown-linux-gnu\"\n"
            .write(to: url, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        return url
    }

    static func checkSwift(_ swift: String) throws -> Completed {
        try runProcess(scripts.appendingPathComponent("check-swift.sh"), [], environment: ["SWIFT": swift])
    }

    @Test("no swift, or one older than Package.swift's tools version, stops naming the version needed and where to get it")
    func swiftTooOld() throws {
        let directory = try scratchDirectory()
        let manifest = try String(contentsOf: ReadmeCommandTests.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let needed = try #require(manifest.firstMatch(of: #/swift-tools-version: *([0-9.]+)/#)?.1)
        for swift in [try Self.fakeSwift("6.0.3", in: directory).path, directory.appendingPathComponent("none").path] {
            let result = try Self.checkSwift(swift)
            #expect(result.status == 1, "\(swift): \(result.error)")
            #expect(result.error.contains("needs Swift \(needed) or newer") && result.error.contains("https://www.swift.org/install/linux/"),
                    "\(result.error)")
        }
        #expect(try Self.checkSwift(try Self.fakeSwift("6.0.3", in: directory).path).error.contains("is Swift 6.0.3"))
        for version in [String(needed), "6.3.1", "7.0"] {
            let result = try Self.checkSwift(try Self.fakeSwift(version, in: directory).path)
            #expect(result.status == 0 && result.error.isEmpty, "\(version): \(result.error)")
        }
    }

    @Test("each release gets its own names from the one list; ci adds debootstrap; others get Debian 13's")
    func packagesPerRelease() throws {
        func list(_ release: String) throws -> Set<String> {
            let result = try runProcess(Self.scripts.appendingPathComponent("install-deps.sh"), ["--list", release])
            #expect(result.status == 0, "\(result.error)")
            return Set(result.output.split(separator: "\n").map(String.init))
        }
        let bookworm = try list("bookworm"), trixie = try list("trixie")
        #expect(bookworm.contains("libstdc++-12-dev") && !bookworm.contains("libstdc++-14-dev") && !bookworm.contains("binutils-gold"))
        #expect(trixie.contains("libstdc++-14-dev") && !trixie.contains("libstdc++-12-dev") && trixie.contains("binutils-gold"))
        for common in ["binutils", "libc6-dev", "libcurl4-openssl-dev", "libxml2-dev", "libzxing-dev", "libgstreamer1.0-dev", "chromium"] {
            #expect(bookworm.contains(common) && trixie.contains(common), "\(common)")
        }
        #expect(!bookworm.contains("debootstrap") && !bookworm.contains("ci"), "ci's packages only with --with ci")
        #expect(try list("noble") == trixie)
        // The machine's own release: every name it lists is installed (make test installed them).
        let release = try String(contentsOfFile: "/etc/os-release", encoding: .utf8).firstMatch(of: #/VERSION_CODENAME=(\w+)/#).map { String($0.1) }
        if let release, ["bookworm", "trixie"].contains(release) {
            let query = try runProcess(URL(fileURLWithPath: "/usr/bin/dpkg-query"), ["-W", "-f=${Package} ${Status}\n"] + (try list(release)).sorted())
            let notInstalled = query.output.split(separator: "\n").filter { !$0.hasSuffix("install ok installed") }
            #expect(notInstalled.isEmpty, "\(notInstalled)")
        }
    }
}
