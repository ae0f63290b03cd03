extension CaptureSession {
    /// Whether `input` can be added: not already present, and its device supports the preset.
    public func canAddInput(_ input: any CaptureInput) -> Bool {
        (try? state.withLock { state throws(CaptureError) in try state.checkAddInput(input) }) != nil
    }

    /// Adds an input and connects it to every output that has no connection yet.
    func checkedAddInput(_ input: any CaptureInput) throws(CaptureError) {
        try mutateGraph({ state throws(CaptureError) in
            try state.checkAddInput(input)
            state.inputs.append(input)
            for port in input.ports {
                for output in state.outputs where output.mediaTypes.contains(port.mediaType) && !state.hasConnection(of: output, for: port.mediaType) {
                    // Only the first video port connects a video output, as before; audio ports
                    // connect outputs that take audio.
                    guard port.mediaType != .video || port === input.ports.first(where: { $0.mediaType == .video }) else { continue }
                    state.connections.append(CaptureConnection(inputPorts: [port], output: output))
                    output.setConnections(state.connections.filter { $0.output === output })
                }
            }
        }, changed: { resetFrameDurations(joining: input) })
    }

    /// Adds an input without forming connections; use `addConnection` to connect it.
    func checkedAddInputWithNoConnections(_ input: any CaptureInput) throws(CaptureError) {
        try mutateGraph({ state throws(CaptureError) in
            try state.checkAddInput(input)
            state.inputs.append(input)
        }, changed: { resetFrameDurations(joining: input) })
    }

    /// Removes an input and its connections.
    func checkedRemoveInput(_ input: any CaptureInput) throws(CaptureError) {
        try mutateGraph { state throws(CaptureError) in
            guard state.inputs.contains(where: { $0 === input }) else { throw .notInSession("\(input)") }
            state.inputs.removeAll { $0 === input }
            let ports = Set(input.ports.map(ObjectIdentifier.init))
            state.connections.removeAll { connection in
                connection.inputPorts.contains { ports.contains(ObjectIdentifier($0)) }
            }
            refreshOutputConnections(&state)
        }
    }

    /// Whether `output` can be added: not already present, and fed by a video input if any input exists.
    public func canAddOutput(_ output: any CaptureOutput) -> Bool {
        (try? state.withLock { state throws(CaptureError) in try state.checkAddOutput(output) }) != nil
    }

    /// Adds an output and connects it to the first input with a video port.
    func checkedAddOutput(_ output: any CaptureOutput) throws(CaptureError) {
        try mutateGraph { state throws(CaptureError) in
            let node = try state.checkAddOutput(output)
            node.owner.set(self)
            state.outputs.append(node)
            state.key(node)
            for mediaType in node.mediaTypes {
                if let port = state.inputs.lazy.flatMap(\.ports).first(where: { $0.mediaType == mediaType }) {
                    state.connections.append(CaptureConnection(inputPorts: [port], output: node))
                }
            }
            refreshOutputConnections(&state)
        }
    }

    /// Adds an output without forming connections.
    func checkedAddOutputWithNoConnections(_ output: any CaptureOutput) throws(CaptureError) {
        try mutateGraph { state throws(CaptureError) in
            let node = try state.checkAddOutput(output)
            node.owner.set(self)
            state.outputs.append(node)
            state.key(node)
        }
    }

    /// Removes an output and its connections.
    func checkedRemoveOutput(_ output: any CaptureOutput) throws(CaptureError) {
        try mutateGraph { state throws(CaptureError) in
            guard state.outputs.contains(where: { $0 === output }) else { throw .notInSession("\(type(of: output))") }
            state.outputs.removeAll { $0 === output }
            state.outputKeys[ObjectIdentifier(output)] = nil
            state.connections.removeAll { $0.output === output }
            (output as? any OutputNode)?.setConnections([])
            (output as? any OutputNode)?.owner.set(nil)
        }
    }

    /// Whether `connection` can be added: its input ports and output are in the session and the
    /// output has no connection of the connection's media type yet.
    public func canAddConnection(_ connection: CaptureConnection) -> Bool {
        (try? state.withLock { state throws(CaptureError) in try state.checkAddConnection(connection) }) != nil
    }

    /// Adds a connection made with `CaptureConnection(inputPorts:output:)`.
    func checkedAddConnection(_ connection: CaptureConnection) throws(CaptureError) {
        try mutateGraph { state throws(CaptureError) in
            try state.checkAddConnection(connection)
            state.connections.append(connection)
            refreshOutputConnections(&state)
        }
    }

    /// Removes a connection.
    func checkedRemoveConnection(_ connection: CaptureConnection) throws(CaptureError) {
        try mutateGraph { state throws(CaptureError) in
            guard state.connections.contains(where: { $0 === connection }) else { throw .notInSession("\(connection)") }
            state.connections.removeAll { $0 === connection }
            refreshOutputConnections(&state)
        }
    }

    private func refreshOutputConnections(_ state: inout State) {
        for output in state.outputs {
            output.setConnections(state.connections.filter { $0.output === output })
        }
    }
}

extension CaptureSession.State {
    /// Whether `output` has a connection from a port of `mediaType`.
    func hasConnection(of output: any CaptureOutput, for mediaType: MediaType) -> Bool {
        connections.contains { $0.output === output && $0.inputPorts.contains { $0.mediaType == mediaType } }
    }

    /// Throws unless `input` can join: not in the session yet (nor its device), and its device supports the preset.
    func checkAddInput(_ input: any CaptureInput) throws(CaptureError) {
        let name = (input as? CaptureDeviceInput)?.device.uniqueID ?? "\(input)"
        if inputs.contains(where: { $0 === input }) { throw .inputAlreadyAdded(device: name) }
        if let device = (input as? CaptureDeviceInput)?.device {
            if inputs.contains(where: { ($0 as? CaptureDeviceInput)?.device == device }) {
                throw .inputAlreadyAdded(device: name)
            }
            if preset != .inputPriority && !device.supportsSessionPreset(preset) {
                throw .unsupportedPreset(preset, supported: SessionPreset.allCases.filter(device.supportsSessionPreset))
            }
        }
    }

    /// The output as a node, unless it cannot join: already in the session, or nothing to take its media from.
    func checkAddOutput(_ output: any CaptureOutput) throws(CaptureError) -> any OutputNode {
        guard let node = output as? any OutputNode else { throw .noCompatibleInput(output: "\(type(of: output))") }
        if outputs.contains(where: { $0 === output }) { throw .outputAlreadyAdded(output: node.kind) }
        if !inputs.isEmpty && !inputs.contains(where: { $0.ports.contains { $0.mediaType == node.mediaType } }) {
            throw .noCompatibleInput(output: node.kind)
        }
        return node
    }

    /// Throws unless `connection` can be added: its ports and output in the session, the output without one of its media type.
    func checkAddConnection(_ connection: CaptureConnection) throws(CaptureError) {
        guard let output = connection.output, outputs.contains(where: { $0 === output }) else {
            throw .notInSession("\(connection)")
        }
        let ports = inputs.flatMap(\.ports)
        for port in connection.inputPorts where !ports.contains(where: { $0 === port }) {
            throw .notInSession(port.description)
        }
        let mediaType = connection.inputPorts.first?.mediaType ?? .video
        if connections.contains(where: { $0 === connection }) || hasConnection(of: output, for: mediaType) {
            throw .outputAlreadyAdded(output: "\(type(of: output)) already has a \(mediaType.rawValue) connection")
        }
    }
}
