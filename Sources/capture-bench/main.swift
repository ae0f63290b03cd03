import CaptureKit
import Foundation
let output = StillImageOutput()
let session = CaptureSession()
try session.setSessionPreset(.vga640x480)
try session.addInput(CaptureDeviceInput(device: CaptureDevice.find("virtual")))
try session.addOutput(output)
print(session.pipelineDescription)
try session.startRunning()
print("running")
let c = output.connection(with: .video)!
let sem = DispatchSemaphore(value: 0)
try output.captureStillImage(from: c) { s, e in print("got", s as Any, e as Any); sem.signal() }
print(sem.wait(timeout: .now() + 5))
