import Datasets
import Harness
import Pins
import Reports

extension PrivacyRequest {
    /// Audits `request.input` and writes `request.output` by its extension.
    /// - Returns: the headline (`PrivacyAuditRun.summary`).
    /// - Parameter progress: told each stage as it starts ("writing …").
    public func run(progress: (String) -> Void = { _ in }) throws -> String {
        let request = self
        try AtomicFile.checkDestination(request.output)
        let audit = try PrivacyAuditRun.audit(request)
        progress("writing \(request.output)")
        let lower = request.output.lowercased()
        if lower.hasSuffix(".csv") {
            try AtomicFile.write(PrivacyAuditRun.csv(audit), to: request.output)
        } else if lower.hasSuffix(".geojson") || lower.hasSuffix(".json") {
            try PrivacyAuditRun.writeGeoJSON(audit, to: request.output)
        } else {
            try AtomicFile.write(PrivacyReport.page(page(audit)), to: request.output)
        }
        return PrivacyAuditRun.summary(audit, target: request.target)
    }

    /// What the HTML page shows of `audit`.
    func page(_ audit: AnonymityAudit) -> AnonymityPage {
        AnonymityPage(input: input, rule: MaskStore.describe(source.rule, source.minOffset, source.maxOffset),
                      summary: PrivacyAuditRun.summary(audit, target: target), target: target,
                      locations: audit.locations.map {
                          AnonymityPage.Location(longitude: $0.longitude, latitude: $0.latitude, k: $0.k, largestSpot: $0.largestSpot)
                      })
    }
}
