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
 * {@code STORE_DIR/ready}. SIGTERM shuts the DBMS down cleanly. A file {@code reset-request}
 * beside the store asks for a new, empty store in the same JVM (see {@code main}); the
 * oracle writes {@code control} beside the store to say it understands the request.
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

        Path control = home.resolveSibling("control");
        Path request = home.resolveSibling("reset-request");
        Files.deleteIfExists(request);
        Object lock = new Object();
        DatabaseManagementService[] current = new DatabaseManagementService[1];
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                Files.deleteIfExists(ready);
                Files.deleteIfExists(control);
            } catch (IOException ignored) {
                // best effort: the script removes them too
            }
            synchronized (lock) {
                if (current[0] != null) {
                    current[0].shutdown();
                    current[0] = null;
                }
            }
        }, "grape-oracle-shutdown"));

        String uri;
        synchronized (lock) {
            current[0] = start(home, port, plugins);
            uri = announce(current[0], home, ready);
        }
        port = Integer.parseInt(uri.substring(uri.lastIndexOf(':') + 1));
        // `scripts/neo4j-oracle reset` asks for a new, empty store by creating `reset-request`
        // beside the store: the DBMS is shut down, its store deleted and a new one started on
        // the same port in this JVM, whose compiled code stays warm (a new JVM takes ~10 s and
        // plans slowly until the JIT has caught up). The script waits for `ready` again.
        Files.writeString(control, "reset\n", StandardCharsets.UTF_8);
        System.out.println("grape-neo4j-oracle ready " + uri);
        System.out.flush();
        while (true) {
            Thread.sleep(50);
            if (!Files.exists(request)) {
                continue;
            }
            synchronized (lock) {
                if (current[0] == null) {
                    return; // shutting down
                }
                Files.deleteIfExists(ready);
                current[0].shutdown();
                current[0] = null;
                deleteTree(home);
                Files.createDirectories(home);
                current[0] = start(home, port, plugins);
                uri = announce(current[0], home, ready);
            }
            Files.deleteIfExists(request);
            System.out.println("grape-neo4j-oracle reset, ready " + uri);
            System.out.flush();
        }
    }

    /** A DBMS on {@code home} with Bolt on {@code port} of loopback (0: a free one). */
    private static DatabaseManagementService start(Path home, int port, Path plugins) {
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
        return builder.build();
    }

    /**
     * Sets the password, runs {@code RETURN 1}, and writes the Bolt URI atomically to
     * {@code ready}; a failure exits the JVM (the DBMS's own threads would keep it alive).
     */
    private static String announce(DatabaseManagementService dbms, Path home, Path ready) {
        try {
            setPassword(dbms.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME));
            GraphDatabaseService db = dbms.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME);
            db.executeTransactionally("RETURN 1");
            String uri = "bolt://127.0.0.1:" + ((GraphDatabaseAPI) db).getDependencyResolver()
                    .resolveDependency(ConnectorPortRegister.class)
                    .getLocalAddress(ConnectorType.BOLT)
                    .getPort();
            Path tmp = home.resolve("ready.tmp");
            Files.writeString(tmp, uri + "\n", StandardCharsets.UTF_8);
            Files.move(tmp, ready, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return uri;
        } catch (Exception e) {
            e.printStackTrace();
            System.exit(1);
            return null;
        }
    }

    /** Deletes {@code dir} and everything under it (it does not follow links). */
    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (java.util.stream.Stream<Path> walk = Files.walk(dir)) {
            List<Path> paths = walk.sorted(java.util.Comparator.reverseOrder()).toList();
            for (Path p : paths) {
                Files.delete(p);
            }
        }
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
