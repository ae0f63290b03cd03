import Testing
@testable import CaptureFiles

/// The "did you mean" suggestions for misspelt keys and values.
@Suite struct SuggestionTests {
    @Test(arguments: [
        ("qualty", "quality"),
        ("JPEG", "jpeg"),
        ("nv21", "nv12"),
        ("fram", "frames"),
        ("landscapeleft", "landscapeLeft"),
        ("videoDta", "videoData"),
        ("pixelformat", "pixelFormat"),
    ])
    func suggestsTheClosestCandidate(written: String, expected: String) {
        let candidates = ["quality", "jpeg", "nv12", "frames", "seconds", "landscapeLeft", "landscapeRight",
                          "videoData", "pixelFormat"]
        #expect(Suggestion.closest(to: written, among: candidates) == expected)
    }

    @Test func noSuggestionWhenNothingIsClose() {
        #expect(Suggestion.closest(to: "cameras", among: ["version", "preset", "inputs", "outputs", "run"]) == nil)
    }

    @Test func ambiguousPrefixGivesNoSuggestion() {
        #expect(Suggestion.closest(to: "landscape", among: ["landscapeLeft", "landscapeRight"]) == nil)
    }

    @Test func transpositionCountsAsOneEdit() {
        #expect(Suggestion.editDistance(Array("nv21"), Array("nv12")) == 1)
        #expect(Suggestion.editDistance(Array("kitten"), Array("sitting")) == 3)
    }
}
