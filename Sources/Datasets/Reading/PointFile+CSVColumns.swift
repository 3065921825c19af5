import ListingVocabulary

// The CSV reader's columns beyond coordinates and ids: the `--weight-column` and the
// columns `--where` tests (see `CSVPointVisitor.assignRoles`).

extension CSVPointVisitor {
    /// Gives the `--weight-column` its role.
    /// - Throws: `.missingColumns` when the file lacks it; `.invalidOption` when it holds the
    ///   coordinates or the ids.
    mutating func attachWeight() throws(DatasetError) {
        guard let name = options.weight else { return }
        let wanted = name.trimmingWhitespace().lowercased()
        guard let c = header.firstIndex(where: { $0.trimmingWhitespace().lowercased() == wanted }) else {
            throw .missingColumns(path: path, wanted: "'\(name)' (--weight-column)", found: header)
        }
        guard roles[c] == .skip else {
            throw .invalidOption(option: "--weight-column", value: name,
                                 reason: "\(path): '\(name)' holds the coordinates or the ids; name the column of the weights")
        }
        roles[c] = .weight
        rows.hasWeights = true
    }

    /// Gives the `--features` columns their roles: one naming a coordinate column (x or
    /// longitude, y or latitude, whichever pair the position is read from) stands for that
    /// coordinate of the position, the others are read as numbers into `row.features`.
    /// - Throws: `.missingColumns` for a name the file lacks; `.invalidOption` for the ids,
    ///   the weights or a name given twice.
    mutating func attachFeatures(_ resolved: ResolvedColumns) throws(DatasetError) {
        guard !options.features.isEmpty else { return }
        var sources: [FeatureColumns.Source] = []
        featureSlot = [Int](repeating: -1, count: header.count)
        for name in options.features {
            let wanted = name.trimmingWhitespace().lowercased()
            guard let c = header.firstIndex(where: { $0.trimmingWhitespace().lowercased() == wanted }) else {
                throw .missingColumns(path: path, wanted: "'\(name)' (--features)", found: header)
            }
            let source: FeatureColumns.Source
            if let axis = Self.positionAxis(of: c, resolved) {
                source = .coordinate(axis)
            } else {
                guard roles[c] == .skip else {
                    throw .invalidOption(option: "--features", value: name,
                                         reason: "\(path): '\(name)' is given twice or holds the ids or the weights; name each feature column once")
                }
                featureSlot[c] = sources.count - sources.filter { if case .coordinate = $0 { true } else { false } }.count
                roles[c] = .feature
                source = .column(featureSlot[c])
            }
            guard !sources.contains(source) else {
                throw .invalidOption(option: "--features", value: name, reason: "\(path): '\(name)' is given twice, or names the position twice (x and longitude, y and latitude are one position); name each feature once")
            }
            sources.append(source)
        }
        rows.features = FeatureColumns(names: options.features, sources: sources)
        row.features = [Double](repeating: 0, count: rows.features!.columnCount)
    }

    /// The axis of the position (0: x or longitude, 1: y or latitude) column c holds, if any.
    private static func positionAxis(of c: Int, _ resolved: ResolvedColumns) -> Int? {
        if c == resolved.first { return 0 }
        if c == resolved.second { return 1 }
        guard resolved.latitude != nil && resolved.longitude != nil else { return nil }
        if c == resolved.longitude { return 0 }
        if c == resolved.latitude { return 1 }
        return nil
    }

    /// Gives the columns `--where` tests the `.condition` role and their conditions.
    /// - Throws: `.missingFilterColumn` for a column the file lacks; `.invalidOption` for a
    ///   column read as something else (coordinates, id, a listing attribute).
    mutating func attachConditions(_ list: [PropertyCondition]) throws(DatasetError) {
        guard !list.isEmpty else { return }
        conditions = Array(repeating: [], count: header.count)
        for condition in list {
            guard let c = header.firstIndex(of: condition.name) else {
                throw .missingFilterColumn(path: path, option: "--where", wanted: condition.name, found: header)
            }
            switch roles[c] {
            case .skip, .condition: roles[c] = .condition
            case .weight, .weightTested: roles[c] = .weightTested
            case .feature, .featureTested: roles[c] = .featureTested
            default:
                throw .invalidOption(option: "--where", value: condition.description,
                                     reason: "\(path): '\(condition.name)' holds the coordinates, the ids or a listing attribute; filter it with its own option (--bbox, --category, --area, --deposit, --rent)")
            }
            conditions[c].append(condition)
        }
    }
}
