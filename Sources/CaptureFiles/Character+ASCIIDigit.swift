extension Character {
    /// Whether the character is one of the ASCII digits `0`–`9`.
    var isASCIIDigit: Bool {
        ("0"..."9").contains(self)
    }
}
