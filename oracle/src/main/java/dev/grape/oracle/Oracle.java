package dev.grape.oracle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.ConnectorPortRegister;
import org.neo4j.configuration.connectors.ConnectorType;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.connectors.HttpsConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.io.ByteUnit;
import org.neo4j.kernel.internal.GraphDatabaseAPI;
import org.neo4j.logging.Level;
import org.neo4j.logging.log4j.Log4jLogProvider;

/**
 * Test oracle for grape: an embedded Neo4j Community DBMS with APOC core,
 * reachable over Bolt on loopback only. Not part of the Rust crate.
 *
 * <p>Usage: {@code Oracle STORE_DIR [PORT]}; PORT 0 (the default) lets the
 * kernel bind a free port. Once Bolt is up, the password is set and
 * {@code RETURN 1} has run, the Bolt URI is printed and written atomically to
 * {@code STORE_DIR/ready}. SIGTERM shuts the DBMS down cleanly.
 */
public final class Oracle {
    public static final String USER = "neo4j";
    public static final String PASSWORD = "grape-oracle";

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: Oracle STORE_DIR [PORT]");
            System.exit(2);
        }
        Path home = Path.of(args[0]).toAbsolutePath();
        int port = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        Path ready = home.resolve("ready");
        Files.createDirectories(home);
        Files.deleteIfExists(ready);

        // APOC's extension factories (apoc-common) load from the classpath via
        // ServiceLoader, but the kernel registers procedures and functions
        // only from jars in the plugin dir: the build copies apoc-core to
        // target/plugins, next to target/classes (-Dgrape.oracle.plugins overrides).
        Path classes = Path.of(Oracle.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path plugins = Path.of(System.getProperty("grape.oracle.plugins",
                classes.resolveSibling("plugins").toString()));

        DatabaseManagementServiceBuilder builder = new DatabaseManagementServiceBuilder(home)
                .setUserLogProvider(new Log4jLogProvider(System.out, Level.INFO))
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
                .setConfig(BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED)
                .setConfig(HttpConnector.enabled, false)
                .setConfig(HttpsConnector.enabled, false)
                .setConfig(GraphDatabaseSettings.auth_enabled, true)
                .setConfig(GraphDatabaseSettings.plugin_dir, plugins)
                .setConfig(GraphDatabaseSettings.procedure_unrestricted, List.of("apoc.*", "gds.*"))
                .setConfig(GraphDatabaseSettings.procedure_allowlist, List.of("*"))
                .setConfig(GraphDatabaseSettings.pagecache_memory, ByteUnit.mebiBytes(256))
                .setConfig(GraphDatabaseSettings.keep_logical_logs, "false")
                .setConfig(GraphDatabaseSettings.logical_log_rotation_threshold, ByteUnit.mebiBytes(16))
                .setConfig(GraphDatabaseSettings.preallocate_logical_logs, false)
                .setConfig(GraphDatabaseSettings.transaction_timeout, Duration.ZERO)
                .setConfig(GraphDatabaseSettings.udc_enabled, false);
        quietShutdown(builder);
        DatabaseManagementService dbms = builder.build();

        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                Files.deleteIfExists(ready);
            } catch (IOException ignored) {
                // best effort: the script removes it too
            }
            dbms.shutdown();
        }, "grape-oracle-shutdown"));

        String uri;
        try {
            setPassword(dbms.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME));
            GraphDatabaseService db = dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME);
            db.executeTransactionally("RETURN 1");
            uri = "bolt://127.0.0.1:" + ((GraphDatabaseAPI) db).getDependencyResolver()
                    .resolveDependency(ConnectorPortRegister.class)
                    .getLocalAddress(ConnectorType.BOLT)
                    .getPort();
            Path tmp = home.resolve("ready.tmp");
            Files.writeString(tmp, uri + "\n", StandardCharsets.UTF_8);
            Files.move(tmp, ready, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (Exception e) {
            // The DBMS's own threads would keep the JVM alive; exit via the hook.
            e.printStackTrace();
            System.exit(1);
            return;
        }
        System.out.println("grape-neo4j-oracle ready " + uri);
        System.out.flush();
        Thread.currentThread().join(); // until SIGTERM runs the shutdown hook
    }

    /**
     * Embedded transactions bypass auth, so the system database can replace
     * the initial {@code neo4j/neo4j} (change required) login before any Bolt
     * client learns the URI. On a reused store the password is already set.
     */
    private static void setPassword(GraphDatabaseService system) {
        boolean initial = system.executeTransactionally(
                "SHOW USERS YIELD user, passwordChangeRequired WHERE user = $user RETURN passwordChangeRequired",
                Map.of("user", USER),
                r -> r.hasNext() && Boolean.TRUE.equals(r.next().get("passwordChangeRequired")));
        if (initial) {
            system.executeTransactionally(
                    "ALTER USER " + USER + " SET PASSWORD $password CHANGE NOT REQUIRED",
                    Map.of("password", PASSWORD));
        }
    }

    /**
     * Otherwise each Bolt event loop idles 5 s on shutdown. The setting holds seconds as an
     * integer in 5.26 and a duration from 2025 on: set in the form it takes.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void quietShutdown(DatabaseManagementServiceBuilder builder) {
        org.neo4j.graphdb.config.Setting setting =
                GraphDatabaseInternalSettings.netty_server_shutdown_quiet_period;
        Object zero = setting.defaultValue() instanceof Duration ? Duration.ZERO : (Object) 0;
        builder.setConfig(setting, zero);
    }
}
