import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.h2.H2Backend;

/**
 * Haven's embedded MongoDB-compatible server for development and tests: mongo-java-server with its
 * H2 (MVStore) backend, persistent to one file, listening on the given host and port.
 *
 * Usage: java -cp 'libs/*:classes' HavenMongoServer HOST PORT DATA_FILE
 *
 * The library's own H2MongoServer main is fixed to localhost:27017; tests need free ports.
 */
public final class HavenMongoServer {
  private HavenMongoServer() {}

  public static void main(String[] args) {
    if (args.length != 3) {
      System.err.println("usage: HavenMongoServer HOST PORT DATA_FILE");
      System.exit(2);
    }
    String host = args[0];
    int port = Integer.parseInt(args[1]);
    String dataFile = args[2];
    MongoServer server = new MongoServer(new H2Backend(dataFile));
    server.bind(host, port);
    // SIGTERM: stop accepting, close cursors and the backend, which writes the store to disk.
    Runtime.getRuntime().addShutdownHook(new Thread(server::shutdown, "haven-mongo-shutdown"));
    System.out.println("HavenMongoServer listening on " + host + ":" + port + ", data in " + dataFile);
  }
}
