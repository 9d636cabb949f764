import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.oplog.Oplog;

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
    MongoServer server = new MongoServer(new Backend(dataFile));
    server.bind(host, port);
    // SIGTERM: stop accepting, close cursors and the backend, which writes the store to disk.
    Runtime.getRuntime().addShutdownHook(new Thread(server::shutdown, "haven-mongo-shutdown"));
    System.out.println("HavenMongoServer listening on " + host + ":" + port + ", data in " + dataFile);
  }

  /** The H2 backend, handing out databases whose collection lifecycle is serialised (see Database). */
  static final class Backend extends H2Backend {
    Backend(String dataFile) {
      super(dataFile);
    }

    @Override
    protected MongoDatabase openOrCreateDatabase(String databaseName) {
      return new Database(databaseName, this);
    }

    CursorRegistry cursorRegistry() {
      return getCursorRegistry();
    }
  }

  /**
   * mongo-java-server 1.47 serialises "resolve or create" of a collection, but not the explicit
   * `create` command, nor drops: a service starting up sends `create` (mongoose autoCreate) and
   * `createIndexes` for the same new collection at once, and the two racing writers of the namespace
   * record fail with "Document with key '<db>.<coll>' already existed in system.namespaces". Real
   * MongoDB serialises these under its catalog lock; so does this subclass, on the database's monitor,
   * the same one the library's synchronized methods use. Conformance test: "concurrent first use".
   */
  static final class Database extends H2Database {
    Database(String databaseName, Backend backend) {
      super(databaseName, backend.getMvStore(), backend.cursorRegistry());
    }

    @Override
    public synchronized MongoCollection<Object> createCollectionOrThrowIfExists(
        String collectionName, CollectionOptions options) {
      return super.createCollectionOrThrowIfExists(collectionName, options);
    }

    @Override
    public synchronized void dropCollection(String collectionName, Oplog oplog) {
      super.dropCollection(collectionName, oplog);
    }

    @Override
    public synchronized void drop(Oplog oplog) {
      super.drop(oplog);
    }

    @Override
    public synchronized void moveCollection(
        MongoDatabase oldDatabase, MongoCollection<?> collection, String newCollectionName) {
      super.moveCollection(oldDatabase, collection, newCollectionName);
    }

    /**
     * The library synchronises a collection's reads and writes on the collection's monitor, but not its
     * index changes: an insert iterating the index list while `createIndexes` appends to it fails with a
     * ConcurrentModificationException ("Unknown error: null" to the client). Index changes take the
     * collection's monitor too. Lock order everywhere here: database, then collection.
     */
    @Override
    protected synchronized void addIndex(Document indexDescription) {
      String namespace = indexDescription.get("ns").toString();
      String collectionName = namespace.substring(getDatabaseName().length() + 1);
      MongoCollection<Object> collection = resolveOrCreateCollection(collectionName);
      synchronized (collection) {
        super.addIndex(indexDescription);
      }
    }

    @Override
    protected synchronized void dropIndex(MongoCollection<Object> collection, String indexName) {
      synchronized (collection) {
        super.dropIndex(collection, indexName);
      }
    }
  }
}
