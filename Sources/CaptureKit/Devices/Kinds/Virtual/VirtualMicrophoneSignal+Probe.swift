import GStreamerSwift

extension VirtualMicrophoneSignal {
    /// Fills every buffer passing `pad` with the signal, computed from the buffer's
    /// presentation time. Install it on the src pad of the virtual microphone's `audiotestsrc`
    /// (`prefix_src`, see `AudioSource.sourceChain`), whose buffers are `format` (its caps filter
    /// pins it) and belong to nobody else yet, so they are written in place without a copy.
    /// Buffers without a presentation time pass untouched (silence).
    ///
    /// Threading: the probe runs on the source's streaming thread, once per buffer; it only
    /// computes samples. Returns the probe's id for `Pad.removeProbe`.
    @discardableResult
    static func install(on pad: Pad, format: AudioFormat) -> UInt {
        pad.addBufferProbe { buffer in
            guard let time = buffer.presentationTime else { return .pass }
            try? buffer.withWritableBytes { bytes in render(into: bytes, format: format, presentationTime: time) }
            // audiotestsrc flags its silence as a gap, which converters skip: it is data now.
            buffer.isGap = false
            return .pass
        }
    }
}
