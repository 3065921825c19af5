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
            default:
                throw .invalidOption(option: "--where", value: condition.description,
                                     reason: "\(path): '\(condition.name)' holds the coordinates, the ids or a listing attribute; filter it with its own option (--bbox, --category, --area, --deposit, --rent)")
            }
            conditions[c].append(condition)
        }
    }
}
