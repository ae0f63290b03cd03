extension MovieFileOutput {
    /// The file extensions a recording can have, each naming its container: `mp4`, `mov`, `mkv`.
    public static var supportedFileExtensions: [String] { MovieContainer.supportedExtensions }
}
