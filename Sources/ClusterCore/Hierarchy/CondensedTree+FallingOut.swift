// Where each point falls out of a condensed tree, read from its point rows or, in a tree kept
// without them (`HDBSCANOutputs.clusterTree`), from the by-leaf record the labelling reads.

extension CondensedTree {
    /// Whether the rows include one per point; false for a tree kept with
    /// `HDBSCANOutputs.clusterTree`, whose rows are its child clusters' only.
    public var hasPointRows: Bool { leafCluster.isEmpty }

    /// For each input row, the cluster it falls out of and the lambda at which it does: the
    /// parent and lambda of its point row, which a tree without point rows gives from where
    /// its leaf falls out (the same values). With the cluster rows, that is the whole tree.
    /// - Complexity: O(n).
    public func fallingOut() -> (cluster: [Int32], lambda: [Double]) {
        if hasPointRows {
            return (rowOfPoint.map { parent[Int($0)] }, rowOfPoint.map { lambda[Int($0)] })
        }
        // Over points the leaves are the rows; over locations `leafOfRow` maps them.
        if leafOfRow.isEmpty { return (leafCluster, leafLambda) }
        return (leafOfRow.map { leafCluster[Int($0)] }, leafOfRow.map { leafLambda[Int($0)] })
    }
}
