import ArgumentParser
import CommandLineSupport
import Datasets
import Foundation
import Harness
import Hummingbird
import Logging
import Pins
import PinsServer
import ServiceLifecycle
import UnixSignals

/// `geocluster serve` (this executable, which `geocluster serve` runs): a listing file's pins
/// over HTTP until SIGTERM or SIGINT; SIGHUP (or `POST /admin/reload`) rebuilds the index.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geocluster serve",
        abstract: "Serve a listing file's map pins over HTTP: vector tiles, GeoJSON, leaves, nearby, a browser map.",
        discussion: """
            Builds the same index `geocluster pins` builds (privacy mask, mask file, location keys) \
            and answers from it: GET /tiles/{z}/{x}/{y}.mvt (Mapbox Vector Tiles; tile z holds zoom \
            z's pins), /tiles.json (TileJSON 3.0.0), /pins?zoom=&bbox=, /pins/{id}, \
            /pins/{id}/children, /pins/{id}/leaves?limit=&cursor=, /nearby?lat=&lon=&radius=, \
            /health, /metrics (Prometheus) and / (a MapLibre map). Zoom levels are MapLibre's \
            and Mapbox GL's (512-pixel tiles; a 256-pixel map's zoom z is zoom z − 1 here, and \
            `geocluster pins --tile-size 512` writes the same pins). Every pin endpoint takes the \
            filters category=, area=, deposit=, rent= and where=NAME=… as `geocluster pins` \
            takes them. With --admin-token-file, POST /admin/reload rebuilds from the file (as \
            does SIGHUP) while requests go on being answered, and with --model too, POST \
            /admin/predict places new points (a CSV or GeoJSON body) in the model's clusters. \
            Without LISTINGS it serves the embedded default data (the seoul scenario, 100k \
            listings, seed 1, generated into datasets/cache/). The server needs a mask key: only \
            displayed positions leave it. docs/serve.md is the manual.
            """
    )

    @Argument(help: "Listings: CSV or GeoJSON as `geocluster pins` reads them (default: the seoul scenario, 100k listings).")
    var input: String?

    @Option(help: "Address to listen on (loopback by default; 0.0.0.0 for every interface).")
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: "Port to listen on (0: any free port, printed when listening).")
    var port = 8080

    @Option(help: ArgumentHelp("A file holding the bearer token POST /admin/reload and /admin/predict require (without it there is no admin endpoint).", valueName: "file"))
    var adminTokenFile: String?

    @Option(help: ArgumentHelp("A model file (geocluster cluster --save-model): POST /admin/predict places new points in its clusters, as geocluster predict does; read again at each reload. Needs --admin-token-file.", valueName: "file"))
    var model: String?

    @Option(help: ArgumentHelp("The folder holding maplibre-gl.js and maplibre-gl.css for the map page (default: .build/maplibre, which `make setup-serve` fills).", valueName: "folder"))
    var maplibre: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Merge threshold in pixels (256-pixel tiles), as for `geocluster pins`.", valueName: "px"))
    var radius: Double = PinOptions.defaultRadius

    @OptionGroup var hierarchy: HierarchyOption

    @OptionGroup var discs: DiscSizingOption

    @Option(help: ArgumentHelp("Log level: trace, debug, info, notice, warning, error or critical.", valueName: "level"))
    var logLevel = "info"

    @Flag(help: "Drop the listings of an empty or inconsistent building id (counted in a warning) instead of refusing the file.")
    var skipBadRows = false

    @OptionGroup(title: "Input columns")
    var columns: ColumnOptions

    @OptionGroup(title: "Privacy and locations")
    var source: PinSourceOptions

    @Option(help: ArgumentHelp("Your own columns to carry on pins and listings: all, none, or name,name,… (default none, so that an address column is never published unasked).", valueName: "list"))
    var properties: String?

    func validate() throws {
        try source.requirePrivacyChoice()
        if source.noPrivacy {
            throw ValidationError("the server publishes to anyone who asks, so it always masks positions: give --key-file (make one with `geocluster pins-key -o pins.key`), not --no-privacy")
        }
        if let input {
            guard input != "-" else {
                throw ValidationError("the server reads its listings again at every reload, which standard input cannot give twice; give a file (a .gz is read as is)")
            }
            try columns.validate(input: input)
        }
        if model != nil && adminTokenFile == nil {
            throw ValidationError("--model needs --admin-token-file: POST /admin/predict places points against the true positions, so it is an admin endpoint")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port) must be 0...65535") }
        guard radius.isFinite, radius > 0 else { throw ValidationError("--radius must be a number of pixels > 0") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level \(logLevel): give trace, debug, info, notice, warning, error or critical")
        }
    }

    func run() async throws {
        var logger = Logger(label: "geocluster.serve")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        if !EventLoopExecutor.installed {
            logger.warning("another global executor was installed first: request handlers hop to it and back (a longer latency tail)")
        }
        let recipe = try reportingErrors(input: input) { try makeRecipe(logger: logger) }
        let service = try reportingErrors(input: recipe.input) {
            do { return try PinsService(recipe: recipe, modelPath: model, logger: logger) } catch let e as PinError { throw fail("\(recipe.input): \(e)") }
        }
        let settings = ServerSettings(adminToken: try adminToken(), mapLibre: mapLibreAssets(logger: logger))
        let router = PinsRoutes.router(service: service, settings: settings, metrics: ServerMetrics())
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "geocluster"),
            services: [ReloadOnHangup(service: service, logger: logger)],
            onServerRunning: { [host] channel in
                let port = channel.localAddress?.port ?? 0
                note("geocluster serve: listening on http://\(host):\(port)/ (\(service.snapshot.dataset.shown) listings)")
            },
            logger: logger
        )
        try await app.runService()
    }

    /// What the index is built from: the file (or the default data) read and masked as
    /// `geocluster pins` does.
    func makeRecipe(logger: Logger) throws -> PinsDataset.Recipe {
        var settings = try source.settings(skipBadRows: skipBadRows, columns: columns)
        settings.properties = try PropertyOptions.selection(properties, privacy: true, positions: settings.columns, conditions: [])
        let path = try input ?? BenchDataset.scenario(.seoul, count: 100_000, seed: 1, cache: "datasets/cache").path
        var recipe = PinsDataset.Recipe(input: path, source: settings, radius: radius, minSamples: hierarchy.minSamples, tileSize: PinTiles.tileSize)
        recipe.discSizing = discs.discSizing
        return recipe
    }

    /// The admin token from `--admin-token-file` (surrounding whitespace dropped), nil without it.
    func adminToken() throws -> String? {
        guard let adminTokenFile else { return nil }
        guard let data = FileManager.default.contents(atPath: adminTokenFile),
              let token = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines), token.count >= 16 else {
            throw fail("\(adminTokenFile): cannot read an admin token of at least 16 characters from it")
        }
        return token
    }

    /// MapLibre's files from `--maplibre`, else `.build/maplibre`; nil (with a warning) when absent.
    func mapLibreAssets(logger: Logger) -> MapLibreAssets? {
        let folder = maplibre ?? ".build/maplibre"
        guard let assets = MapLibreAssets(folder: folder) else {
            logger.warning("no MapLibre GL JS in \(folder): the map page says how to install it (make setup-serve); the data endpoints work")
            return nil
        }
        return assets
    }
}

/// Rebuilds the index on SIGHUP, as `POST /admin/reload` does.
struct ReloadOnHangup: Service {
    let service: PinsService
    let logger: Logger

    func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            do { _ = try await service.reload() } catch { logger.warning("SIGHUP: \(error)") }
        }
    }
}
