import Foundation
import Testing
@testable import CaptureServer

/// The request bodies' JSON: strict, each refusal naming what and where; and a seeded fuzz
/// against Foundation's parser on what both should agree on.
@Suite("Camera server: JSON bodies")
struct JSONParserTests {
    static func failure(_ text: String) -> String? {
        do {
            _ = try JSONParser.parse(Data(text.utf8))
            return nil
        } catch {
            return error.message
        }
    }

    @Test("Trailing commas, invalid UTF-8, numbers beyond a double, lone surrogates, deep nesting and trailing text are refused by name")
    func refusals() throws {
        for (text, mention) in [(#"{"uniqueID": "virtual:front",}"#, "trailing comma before }"), ("[1,2,]", "trailing comma before ]"),
                                (#"{"videoZoomFactor": 1e400}"#, "1e400 is beyond a double's range"), ("-1e999", "beyond a double's range"),
                                (#"{"a": "\ud800"}"#, "lone surrogate"), (#"{"a": 1} x"#, "after the value"), (#"{"a": 01}"#, "leading zero"),
                                (#"{"a": 1, "a": 2}"#, "comes twice"), ("{\"a\": \"\u{01}\"}", "control character"), (#"{"a": tru}"#, "unexpected"),
                                (String(repeating: "[", count: 40) + String(repeating: "]", count: 40), "nested deeper than 32"),
                                ("{\n  \"a\": 1,\n}", "line 3, column 1"), (#"{"a": NaN}"#, "unexpected"), ("\u{FEFF}{}", "unexpected")] {
            let message = try #require(Self.failure(text), "\(text) was taken")
            #expect(message.contains(mention), "\(text): \(message)")
        }
        var invalid = Data(#"{"uniqueID": "vi"#.utf8)
        invalid.append(contentsOf: [0xC3, 0x28])
        invalid.append(contentsOf: Data(#""}"#.utf8))
        #expect(throws: JSONParser.Failure(message: "invalid UTF-8 at byte 16 (0xC3)")) { try JSONParser.parse(invalid) }
    }

    @Test("Valid JSON parses as written")
    func values() throws {
        let value = try JSONParser.parse(Data(#" {"a": [1, -2.5e3, true, false, null], "b": "é\n\u00e9\ud83c\udfa5", "c": {}} "#.utf8))
        #expect(value == .object(["a": .array([.number(1), .number(-2500), .bool(true), .bool(false), .null]),
                                  "b": .string("é\né🎥"), "c": .object([:])]))
    }

    @Test("Fuzz: 3,000 seeded mutations of JSON bodies never crash, and whatever Foundation refuses is refused too")
    func fuzz() throws {
        var random = FuzzTests.Seeded(state: 0x15_0DA7A)
        var refused = 0
        for round in 0..<3_000 {
            var bytes = Array(FuzzTests.value(&random, depth: 3).utf8)
            for _ in 0..<Int.random(in: 0...3, using: &random) where !bytes.isEmpty {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert([UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0xFF, 0xC3, UInt8(ascii: "\\")].randomElement(using: &random)!, at: at)
                case 2: bytes[at] = UInt8.random(in: 0...255, using: &random)
                default: bytes.insert(contentsOf: Array("1e400".utf8), at: at)
                }
            }
            let data = Data(bytes)
            let ours = try? JSONParser.parse(data)
            let foundation = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            if ours == nil { refused += 1 }
            if foundation == nil {
                #expect(ours == nil, "round \(round): \(String(decoding: data, as: UTF8.self).debugDescription) taken, Foundation refuses it")
            }
        }
        print("JSON fuzz: \(refused) of 3000 refused")
        #expect(refused > 300 && refused < 2_700)
    }
}
