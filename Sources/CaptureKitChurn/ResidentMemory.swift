import Foundation

/// The process's resident memory, from `/proc/self/statm` (its second field, in pages): what the
/// churn, `capture-bench memory` and the memory tests measure growth with.
public enum ResidentMemory {
    /// Resident bytes; 0 where `/proc` cannot be read.
    public static var bytes: Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
              let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Resident kilobytes.
    public static var kilobytes: Int { bytes / 1024 }
}
