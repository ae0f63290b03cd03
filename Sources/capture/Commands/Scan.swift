import ArgumentParser
import CaptureKit
import Foundation

/// `capture scan`: machine-readable codes from a live device, or from image and video files.
struct Scan: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Print the codes a camera sees, or the codes in image and video files.",
        discussion: """
            Each code is printed once, when it comes into view: "TYPE VALUE", or with --json one \
            line {"type","value","corners","bounds","time","duration","source"} (positions are \
            normalised to the frame: {0,0} top left). A device: exits 0 when something was found \
            (at once with --once), 1 when nothing was by the timeout. Files, as zbarimg: each is \
            scanned in turn; one that cannot be read (missing, not a regular file, not an image \
            or video format scan reads, an image over --max-pixels) is named on standard error \
            with the reason, "FILE: no code" there for one without a code, and the next file is \
            scanned. Exits 0 when every file had a code (with --once, when one was found), 1 \
            otherwise.
            """
    )

    @Option(name: .shortAndLong, help: .device)
    var device: String?

    @Option(name: .customLong("file"), parsing: .upToNextOption, help: "Image (PNG, JPEG, GIF) or video files to scan instead of a device.")
    var files: [String] = []

    @Option(help: "Types, e.g. qr,ean13,code128 or face (default: every code type).")
    var types: TypeList?

    @Option(parsing: .unconditional, help: "Rect of interest x,y,w,h in 0-1 (default: the whole frame).")
    var rect: RectOption?

    @Flag(help: "One JSON object per line.")
    var json = false

    @Flag(help: "Exit after the first code.")
    var once = false

    @Option(help: "Image files: thorough (every binarizer, inversion, turns, scaling; the default) or fast (one pass, zxing's default hints).")
    var effort: MetadataFileScanner.Effort = .thorough

    @Option(parsing: .unconditional, help: "Give up after this many seconds (live devices; default: run until interrupted).",
            transform: Seconds.positive)
    var timeout: Double?

    @Option(name: .customLong("max-pixels"), parsing: .unconditional,
            help: "Files: refuse images (before decoding) and videos whose pictures have more pixels than this (default: 100000000).")
    var maxPixels: Int = MetadataFileScanner.defaultMaxPixels

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if device != nil && !files.isEmpty { throw ValidationError("use either --device or --file, not both") }
        if maxPixels <= 0 {
            throw ValidationError("--max-pixels \(maxPixels) must be a number of pixels greater than 0")
        }
        if let rect, !rect.isWithinUnitSquare {
            throw ValidationError("--rect \(rect.text) is not a non-empty x,y,w,h within 0,0,1,1")
        }
    }

    func run() async throws {
        global.bootstrapLogging()
        let chosen = types?.values ?? MetadataObjectType.machineReadableCodes
        let area = rect?.value ?? CGRect(x: 0, y: 0, width: 1, height: 1)
        var printer = ScanPrinter(json: json)
        if files.isEmpty {
            try await scanDevice(types: chosen, rect: area, printer: &printer)
            if printer.printed == 0 { throw ExitCode(1) }
        } else {
            let scanner = MetadataFileScanner(types: chosen, rectOfInterest: area, effort: effort, maxPixels: maxPixels)
            var everyFileHadOne = true
            for path in files {
                printer.forgetShown()
                let before = printer.printed
                do {
                    for try await batch in scanner.scan(URL(fileURLWithPath: path)) {
                        printer.print(batch, source: path, limit: once ? 1 : nil)
                        if once && printer.printed > 0 { break }
                    }
                } catch {
                    everyFileHadOne = false
                    let message = "\(error)"
                    Self.note(message.contains(path) ? "error: \(message)" : "error: \(path): \(message)")
                    continue
                }
                if once && printer.printed > 0 { break }
                if printer.printed == before {
                    everyFileHadOne = false
                    Self.note("\(path): no code")
                }
            }
            if once ? printer.printed == 0 : !everyFileHadOne { throw ExitCode(1) }
        }
    }

    /// A line on standard error.
    static func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    private func scanDevice(types: [MetadataObjectType], rect: CGRect, printer: inout ScanPrinter) async throws {
        let camera = try CaptureDevice.find(device ?? "default")
        let session = CaptureSession()
        let output = MetadataOutput()
        try session.checked.addInput(CaptureDeviceInput(device: camera))
        try session.checked.addOutput(output)
        try output.setMetadataObjectTypes(types)
        try output.setRectOfInterest(rect)
        if global.verbose { FileHandle.standardError.write(Data("pipeline: \(session.pipelineDescription)\n".utf8)) }
        let batches = output.metadataObjects(bufferingNewest: 64)
        try await session.checked.startRunning()
        let (once, timeout, source, start) = (once, timeout, camera.uniqueID, printer)
        // The batches until --once is met, raced against the timeout.
        printer = await withTaskGroup(of: ScanPrinter?.self) { group in
            group.addTask {
                var printer = start
                for await batch in batches {
                    printer.print(batch, source: source, limit: once ? 1 : nil)
                    if once && printer.printed > 0 { break }
                }
                return printer
            }
            if let timeout {
                group.addTask {
                    try? await Task.sleep(for: .milliseconds(Int(timeout * 1000)))
                    return nil
                }
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            // The scanning task ends once cancelled; take its printer either way.
            var result = first
            while let next = await group.next() { if let next { result = next } }
            return result ?? start
        }
        await session.checked.stopRunning()
    }
}

/// Prints each object once, when it comes into view.
struct ScanPrinter {
    let json: Bool
    private(set) var printed = 0
    private var shown: [String: CaptureTime] = [:]

    init(json: Bool) { self.json = json }

    /// Forgets what was shown, so that a file named twice prints its codes twice.
    mutating func forgetShown() { shown = [:] }

    /// Prints the batch's objects not shown yet; with `limit`, no more than that many in all.
    /// Codes print as "TYPE VALUE", faces as "face ID".
    mutating func print(_ batch: [any MetadataObject], source: String, limit: Int? = nil) {
        for object in batch where printed < (limit ?? .max) {
            let key: String, line: String
            switch object {
            case let code as MachineReadableCodeObject:
                key = "\(code.type.rawValue)\u{1F}\(code.stringValue ?? "")"
                line = json ? code.jsonLine(source: source) : "\(code.type.name) \(code.stringValue ?? "")"
            case let face as FaceObject:
                key = "face\u{1F}\(face.faceID)"
                line = json ? face.jsonLine(source: source) : "face \(face.faceID)"
            default:
                continue
            }
            // Once per appearance: again only after it left view (its duration restarted).
            let identity = "\(source)\u{1F}\(key)"
            if let last = shown[identity], object.duration.seconds > 0 || object.time == last {
                shown[identity] = object.time
                continue
            }
            shown[identity] = object.time
            printed += 1
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
    }
}

/// `--types qr,ean13`.
struct TypeList: ExpressibleByArgument {
    var values: [MetadataObjectType]

    init?(argument: String) {
        let names = argument.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let values = names.compactMap(MetadataObjectType.init(name:))
        guard !names.isEmpty, values.count == names.count else { return nil }
        self.values = values
    }

    static var defaultCompletionKind: CompletionKind { .list(MetadataObjectType.available.filter { $0 != .motion }.map(\.name)) }
}

/// `--rect 0.25,0.25,0.5,0.5`.
struct RectOption: ExpressibleByArgument {
    var value: CGRect
    /// The argument as given.
    var text: String

    init?(argument: String) {
        let parts = argument.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4 else { return nil }
        value = CGRect(x: parts[0], y: parts[1], width: parts[2], height: parts[3])
        text = argument
    }

    /// Whether the rect is non-empty and inside the unit square, as `rectOfInterest` must be.
    var isWithinUnitSquare: Bool {
        value.width > 0 && value.height > 0 && value.minX >= 0 && value.minY >= 0 && value.maxX <= 1 && value.maxY <= 1
    }
}

extension MetadataFileScanner.Effort: ExpressibleByArgument {}
