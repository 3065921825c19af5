import ArgumentParser
import CommandLineSupport

extension Scenario: ExpressibleByArgument {}

/// `geocluster generate`: writes a seeded estate scenario with ground-truth labels.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate seeded synthetic estate listings with ground-truth cluster labels.",
        discussion: """
            Writes id,lat,lon,x,y,truth,category,area_m2,deposit,monthly_rent,floor,building_id \
            (CSV) or the same as GeoJSON Point features, by the output's extension. lat,lon are \
            degrees (6 decimals), x,y metres in EPSG:5179 (2 decimals); truth is the cluster a \
            listing was drawn from, -1 for background; money is in units of 10,000 KRW.
            The same scenario, count and seed give the same bytes; the generator has its own \
            PRNG (SplitMix64) and maths. Listings are generated, projected and written in chunks \
            of 65,536, so 10 million stream to disk in constant memory.
            Scenarios: seoul (complexes, officetel strips, scattered villas), varying-density \
            (densities 100x apart), strips (long thin clusters), uniform (no structure), \
            duplicates (most points share coordinates), busan (a coastline-shaped extent), \
            world (metros, towns and remote settlements on every continent, Fiji across ±180°; \
            no x,y columns: cluster its lat,lon).
            """
    )

    @Option(help: "The scenario to generate (see above).")
    var scenario: Scenario = .seoul

    @Option(parsing: .unconditional, help: "Number of listings to generate (at least 1); filters then drop some.")
    var count: Int = 10_000

    @Option(parsing: .unconditional, help: "Seed: any integer from 0 to 2^64-1.")
    var seed: UInt64 = 1

    @Option(name: .shortAndLong, help: "Output file: .csv, .geojson or .json (written whole or not at all), or - for CSV on standard output.")
    var output: String

    @OptionGroup(title: "Filters")
    var filters: FilterOptions

    func validate() throws {
        if count < 1 { throw ValidationError("--count must be at least 1") }
        if !filters.wheres.conditions.isEmpty { throw ValidationError("--where filters your own columns; generated listings have none (use --category, --area, --deposit, --rent, --bbox)") }
        if ListingFormat(path: output) == nil {
            throw ValidationError("--output '\(output)': the file name must end in .csv, .geojson or .json (or be - for standard output)")
        }
    }

    func run() throws {
        do {
            let filter = try filters.makeFilter()
            let model = ScenarioModel(scenario: scenario, count: count, seed: seed)
            let summary = try GeneratedListings.write(model: model, to: output, format: ListingFormat(path: output)!,
                                                      filter: filter)
            if filter != nil {
                note("generated \(summary.generated) \(scenario.rawValue) listings (seed \(seed)); kept \(summary.kept) of \(summary.generated) rows: "
                     + "\(summary.keptClusters) clusters, \(summary.keptBackground) background; wrote \(output)")
            } else {
                note("generated \(summary.generated) \(scenario.rawValue) listings (seed \(seed)): "
                     + "\(summary.clusters) clusters, \(summary.background) background; wrote \(output)")
            }
        } catch {
            throw fail(error)
        }
    }
}
