import GStreamerSwift

/// One change that turns a running pipeline's plan into another.
@_spi(Plan) public enum PlanOperation: Sendable, Equatable {
    /// Unlink a branch at an idle probe (after end of stream for a muxing branch) and remove it.
    case removeBranch(String)
    /// Remove a source and its tee (its branches are removed first).
    case removeSource(String)
    /// Swap the elements before a source's tee (camera switch, format change); branches stay.
    case replaceSource(PipelinePlan.Source)
    /// Add a source and its tee.
    case addSource(PipelinePlan.Source)
    /// Change a property of a running element.
    case setProperty(element: String, name: String, value: PropertyValue)
    /// Build a branch, request its tee pads, link it and bring it to the pipeline's state.
    case addBranch(PipelinePlan.Branch)
}

extension PlanOperation {
    /// What the operation does to which part, for the runtime's debug log ("replace source input0").
    var summary: String {
        switch self {
        case .removeBranch(let key): "remove branch \(key)"
        case .removeSource(let key): "remove source \(key)"
        case .replaceSource(let source): "replace source \(source.key)"
        case .addSource(let source): "add source \(source.key)"
        case .setProperty(let element, let name, let value): "set \(element).\(name)=\(value)"
        case .addBranch(let branch): "add branch \(branch.key)"
        }
    }
}

extension PipelinePlan {
    /// The operations that turn a pipeline running `self` into one running `new`, in the order
    /// to apply them: removals, source changes, property changes, additions.
    public func diff(to new: PipelinePlan) -> [PlanOperation] {
        var removeBranches: [String] = [], removeSources: [String] = [], replaceSources: [Source] = []
        var addSources: [Source] = [], setProperties: [PlanOperation] = [], addBranches: [Branch] = []
        var rebuiltSources = Set<String>()
        for old in sources {
            guard let source = new.sources.first(where: { $0.key == old.key }) else {
                removeSources.append(old.key)
                continue
            }
            if source.mediaType != old.mediaType || source.tee != old.tee {
                removeSources.append(old.key)
                addSources.append(source)
                rebuiltSources.insert(old.key)
            } else if source.device == old.device, let changes = Self.liveChanges(from: old.head, to: source.head) {
                setProperties += changes
            } else {
                replaceSources.append(source)
            }
        }
        addSources += new.sources.filter { source in !sources.contains { $0.key == source.key } }
        for old in branches {
            let branch = new.branches.first { $0.key == old.key }
            let entersRebuilt = old.entries.contains { rebuiltSources.contains($0.source) }
            if let branch, branch.entries == old.entries, branch.links == old.links,
               branch.finishesWithEndOfStream == old.finishesWithEndOfStream, !entersRebuilt,
               let changes = Self.liveChanges(from: old.elements, to: branch.elements) {
                setProperties += changes
                continue
            }
            removeBranches.append(old.key)
            if old.tee != nil { rebuiltSources.insert(old.key) }
            if let branch { addBranches.append(branch) }
        }
        addBranches += new.branches.filter { branch in !branches.contains { $0.key == branch.key } }
        // Stages are added before and removed after the branches that take from them.
        let stageKeys = Set((branches + new.branches).filter { $0.tee != nil }.map(\.key))
        addBranches = addBranches.filter { stageKeys.contains($0.key) } + addBranches.filter { !stageKeys.contains($0.key) }
        removeBranches = removeBranches.filter { !stageKeys.contains($0) } + removeBranches.filter { stageKeys.contains($0) }
        return removeBranches.map { .removeBranch($0) } + removeSources.map { .removeSource($0) }
            + replaceSources.map { .replaceSource($0) } + addSources.map { .addSource($0) }
            + setProperties + addBranches.map { .addBranch($0) }
    }

    /// The property changes that turn `old` into `new` when both have the same elements and
    /// every difference is a live property; nil when the part must be rebuilt.
    static func liveChanges(from old: [Element], to new: [Element]) -> [PlanOperation]? {
        guard old.count == new.count, zip(old, new).allSatisfy({ $0.isSameElement(as: $1) }) else { return nil }
        var changes: [PlanOperation] = []
        for (before, after) in zip(old, new) where before.properties != after.properties {
            guard before.properties.map(\.name) == after.properties.map(\.name) else { return nil }
            for (was, now) in zip(before.properties, after.properties) where was.value != now.value {
                guard was.live && now.live && was.rebuildKey == now.rebuildKey else { return nil }
                changes.append(.setProperty(element: after.name, name: now.name, value: now.value))
            }
        }
        return changes
    }
}
