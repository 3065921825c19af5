import ArgumentParser
import CommandLineSupport

/// The listing filters shared by the commands that read or make listings (`cluster`,
/// `generate`): every option given must hold for a row to be kept. Malformed values are
/// usage mistakes (exit 64); a `--within` file that cannot be read is an input error
/// (exit 1), reported when the command runs.
struct FilterOptions: ParsableArguments {
    @OptionGroup
    var attributes: AttributeFilterOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Keep points inside minLon,minLat,maxLon,maxLat (degrees, edges included).",
                               valueName: "box"),
            transform: { text in try usage { () throws(DatasetError) in try BoundingBox.parse(text) } })
    var bbox: BoundingBox?

    @Option(help: ArgumentHelp("Keep points in or on the polygons of a .geojson or .wkt file (lon/lat degrees).",
                               valueName: "file"))
    var within: String?

    @OptionGroup
    var wheres: WhereOptions

    func validate() throws {
        if let path = within {
            let ext = InputFile.nameExtension(path)
            guard ["geojson", "json", "wkt", ""].contains(ext) else {
                throw ValidationError("--within '\(path)': the region file must end in .geojson, .json or .wkt (or be - for standard input)")
            }
        }
    }

    /// Whether any filter option was given.
    var isActive: Bool { attributes.isActive || bbox != nil || within != nil || !wheres.conditions.isEmpty }

    /// The filter, reading the `--within` region; nil when no option was given.
    /// - Throws: `DatasetError` for a region file that is missing, unreadable or not polygons.
    func makeFilter() throws(DatasetError) -> ListingFilter? {
        guard isActive else { return nil }
        var filter = attributes.filter ?? AttributeFilter()
        // Validated already (`validate`), so parsing cannot fail here.
        filter.properties = wheres.conditions.compactMap { try? WhereOptions.condition($0) }
        return ListingFilter(attributes: filter, bbox: bbox,
                             region: try within.map { (path) throws(DatasetError) in try Region.read(path: path) })
    }
}

/// The attribute filters (`--category`, `--area`, `--deposit`, `--rent`): part of
/// `FilterOptions`, and on their own where the spatial ones mean something else (`pins`,
/// whose `--bbox` is the viewport, and `nearby`).
struct AttributeFilterOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Keep only these categories (comma-separated): \(ListingCategory.names).",
                               valueName: "list"),
            transform: { text in try usage { () throws(DatasetError) in try ListingFilter.parseCategories(text) } })
    var category: CategorySet?

    @Option(parsing: .unconditional, help: ArgumentHelp("Keep area_m2 in MIN..MAX square metres; either end may be open (..50, 100..).",
                               valueName: "range"),
            transform: { text in try usage { () throws(DatasetError) in try ValueRange.parse(text, option: "--area") } })
    var area: ValueRange?

    @Option(parsing: .unconditional, help: ArgumentHelp("Keep deposit in MIN..MAX (units of 10,000 KRW).", valueName: "range"),
            transform: { text in try usage { () throws(DatasetError) in try ValueRange.parse(text, option: "--deposit") } })
    var deposit: ValueRange?

    @Option(parsing: .unconditional, help: ArgumentHelp("Keep monthly_rent in MIN..MAX (units of 10,000 KRW; jeonse rent is 0).", valueName: "range"),
            transform: { text in try usage { () throws(DatasetError) in try ValueRange.parse(text, option: "--rent") } })
    var rent: ValueRange?

    /// Whether any attribute filter was given.
    var isActive: Bool { category != nil || area != nil || deposit != nil || rent != nil }

    /// The filter the options say (nil when none was given): ends included; in a `PinIndex`
    /// query a listing without the attribute fails it.
    var filter: AttributeFilter? {
        guard isActive else { return nil }
        return AttributeFilter(categories: category, area: area, deposit: deposit, monthlyRent: rent)
    }
}
