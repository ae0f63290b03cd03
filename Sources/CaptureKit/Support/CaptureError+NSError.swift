import Foundation

/// A ``CaptureError`` seen as AVFoundation code sees its errors: `(error as NSError).code` is
/// the matching `AVError.Code` value where there is one (else AVErrorUnknown, -11800), and
/// `userInfo` carries ``ErrorRecordingSuccessfullyFinishedKey`` and the description.
extension CaptureError: CustomNSError {
    public static var errorDomain: String { "CaptureKit.CaptureError" }

    public var errorCode: Int {
        switch code {
        case .sessionNotRunning: -11803
        case .diskFull: -11807
        case .maximumDurationReached: -11810
        case .maximumFileSizeReached: -11811
        case .deviceLocked: -11817
        case .deviceNotFound, .deviceUnavailable: -11814
        case .accessDenied: -11852
        default: -11800
        }
    }

    public var errorUserInfo: [String: Any] {
        [ErrorRecordingSuccessfullyFinishedKey: recordingSuccessfullyFinished, NSLocalizedDescriptionKey: message]
    }
}
