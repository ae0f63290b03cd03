import ArgumentParser

extension ArgumentHelp {
    /// The help of every command's `-d/--device`.
    static let device = ArgumentHelp(
        "A uniqueID, an index from 'capture devices', 'virtual' / 'virtual-front', a V4L2 node such as /dev/video0, libcamera:ID or pipewire:NODE as 'capture devices' lists them, or file:PATH (a video or an image played as a live camera, in a loop).")
}
