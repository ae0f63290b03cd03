enum CaptureFilesPlaceholder {}
