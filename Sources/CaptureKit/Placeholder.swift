enum CaptureKitPlaceholder {}
