import CaptureKit
import Foundation

/// Where the server listens, decided on the addresses a name resolves to, not on how it is
/// spelled: `127.evil.test` that resolves to 0.0.0.0 is every interface, not loopback.
///
/// The server binds the numeric address resolved here (the first), so what was checked is
/// what is bound. Loopback is 127.0.0.0/8 and ::1; a name that resolves to both loopback and
/// other addresses is refused, since which one a bind takes is not the name's to say.
struct ListenAddress: Sendable, Equatable {
    /// The numeric address to bind: `127.0.0.1`, `::1`, `0.0.0.0`, `192.0.2.7`, …
    let address: String
    /// Every address the name resolved to.
    let resolved: [String]
    /// Whether every one of them is a loopback address.
    let isLoopback: Bool
    /// Whether it is the wildcard address (every interface).
    var isWildcard: Bool { address == "0.0.0.0" || address == "::" }

    /// Resolves `host` (a name or a numeric address). Throws `invalidSetting` naming the host
    /// when it does not resolve, or resolves to loopback and other addresses together.
    init(host: String) throws(CaptureError) {
        let bare = RequestOriginPolicy.bareHost(host)
        let addresses = Self.resolve(bare)
        guard let first = addresses.first else {
            throw .invalidSetting(name: "listen host", value: host, valid: "a name that resolves, or an address such as 127.0.0.1, ::1 or 0.0.0.0")
        }
        guard !Self.hasMixedKinds(addresses) else {
            throw .invalidSetting(name: "listen host", value: "\(host) (resolves to \(addresses.joined(separator: ", ")))",
                                  valid: "a name whose addresses are all loopback or all not; or a numeric address")
        }
        address = first
        resolved = addresses
        isLoopback = addresses.allSatisfy(Self.isLoopbackAddress)
    }

    /// Whether `addresses` has loopback addresses and others together.
    static func hasMixedKinds(_ addresses: [String]) -> Bool {
        let loopback = addresses.map(isLoopbackAddress)
        return loopback.contains(true) && loopback.contains(false)
    }

    /// 127.0.0.0/8 or ::1 (IPv4-mapped ::ffff:127.x too).
    static func isLoopbackAddress(_ address: String) -> Bool {
        let lowered = address.lowercased()
        if lowered == "::1" { return true }
        let v4 = lowered.hasPrefix("::ffff:") ? String(lowered.dropFirst(7)) : lowered
        var parsed = in_addr()
        guard inet_pton(AF_INET, v4, &parsed) == 1 else { return false }
        return UInt32(bigEndian: parsed.s_addr) >> 24 == 127
    }

    /// The numeric addresses `host` resolves to (getaddrinfo, TCP), in its order, without
    /// repeats.
    static func resolve(_ host: String) -> [String] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var addresses: [String] = []
        var next = list
        while let entry = next?.pointee {
            next = entry.ai_next
            guard let address = entry.ai_addr, let text = numericHost(address, length: entry.ai_addrlen) else { continue }
            if !addresses.contains(text) { addresses.append(text) }
        }
        return addresses
    }

    /// This machine's interface addresses (getifaddrs), numeric, IPv6 without a zone.
    static func interfaceAddresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [String] = []
        var next = list
        while let entry = next?.pointee {
            next = entry.ifa_next
            guard let address = entry.ifa_addr else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard let text = numericHost(address, length: length) else { continue }
            let bare = String(text.prefix { $0 != "%" })
            if !addresses.contains(bare) { addresses.append(bare) }
        }
        return addresses
    }

    /// `address` as numeric text (getnameinfo, NI_NUMERICHOST); nil when it cannot be shown.
    static func numericHost(_ address: UnsafePointer<sockaddr>, length: socklen_t) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        guard getnameinfo(address, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
