import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.bson.ObjectId;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Collection;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.oplog.Oplog;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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

    /** Non-unique indexes: the library ignores them (every query by them scans); Haven keeps them in memory. */
    @Override
    protected Index<Object> openOrCreateSecondaryIndex(
        String collectionName, String indexName, List<IndexKey> keys, boolean sparse) {
      return new SecondaryIndex(indexName, keys);
    }

    /**
     * H2Database's store. Its constructor opens the existing collections (a restart on a data file) before any
     * field of this subclass, or of the backend being built, could be set: the store is read from H2Database
     * itself, which sets it first.
     */
    private static final Field STORE_FIELD;

    static {
      try {
        STORE_FIELD = H2Database.class.getDeclaredField("mvStore");
        STORE_FIELD.setAccessible(true);
      } catch (ReflectiveOperationException error) {
        throw new ExceptionInInitializerError(error);
      }
    }

    private MVStore store() {
      try {
        return (MVStore) STORE_FIELD.get(this);
      } catch (IllegalAccessException error) {
        throw new IllegalStateException(error);
      }
    }

    /** As H2Database's (same map names, so existing data files open unchanged), with Haven's Collection. */
    @Override
    protected MongoCollection<Object> openOrCreateCollection(String collectionName, CollectionOptions options) {
      String fullName = getFullCollectionNamespace(collectionName);
      MVMap<Object, Document> dataMap = store().openMap("databases." + fullName);
      MVMap<String, Object> metaMap = store().openMap("meta." + fullName);
      return new Collection(this, collectionName, options, dataMap, metaMap, cursorRegistry);
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

  /**
   * mongo-java-server uses an index only for a query that names exactly the index's keys: `{ _id, userId }`
   * (an owner check) or `{ _id, guard }` (the outbox's tombstone guard) scans the whole collection, about 10×
   * slower than `{ _id }` alone at 20,000 documents. MongoDB narrows by the index and filters the rest; so
   * does this: a unique index whose keys the query names, and can serve on their own (equality, `$in`),
   * gives the candidates, and the whole query is matched on them. Conformance: "narrowed by a unique index".
   */
  static final class Collection extends H2Collection {
    Collection(
        MongoDatabase database,
        String collectionName,
        CollectionOptions options,
        MVMap<Object, Document> dataMap,
        MVMap<String, Object> metaMap,
        CursorRegistry cursorRegistry) {
      super(database, collectionName, options, dataMap, metaMap, cursorRegistry);
    }

    @Override
    protected QueryResult queryDocuments(
        Document query, Document orderBy, int numberToSkip, int limit, int batchSize, Document fieldSelector) {
      for (Index<Object> index : getIndexes()) {
        if (index.canHandle(query)) {
          return super.queryDocuments(query, orderBy, numberToSkip, limit, batchSize, fieldSelector);
        }
      }
      for (Index<Object> index : getIndexes()) {
        for (Document narrowing : narrowingsOf(query, index)) {
          if (index.canHandle(narrowing)) {
            return matchDocuments(
                query, index.getPositions(narrowing), orderBy, numberToSkip, limit, batchSize, fieldSelector);
          }
        }
      }
      return super.queryDocuments(query, orderBy, numberToSkip, limit, batchSize, fieldSelector);
    }

    /** The query's conditions on all of the index's keys, then on its first key alone (a compound prefix). */
    private static List<Document> narrowingsOf(Document query, Index<Object> index) {
      List<Document> narrowings = new ArrayList<>();
      Document all = new Document();
      for (IndexKey key : index.getKeys()) {
        if (!query.containsKey(key.getKey())) {
          all = null;
          break;
        }
        all.put(key.getKey(), query.get(key.getKey()));
      }
      if (all != null) narrowings.add(all);
      String first = index.getKeys().get(0).getKey();
      if (index.getKeys().size() > 1 && query.containsKey(first)) {
        narrowings.add(new Document(first, query.get(first)));
      }
      return narrowings;
    }
  }

  /**
   * A non-unique index, kept in memory and rebuilt from the documents when the server opens the store (the
   * library builds an empty index from the collection). It serves equality on plain values (string, number,
   * boolean, ObjectId) of all its keys, or of its first key (a prefix, as MongoDB's compound indexes do). It
   * only has to return a superset: the collection matches the whole query on what it returns. A document
   * whose keys cannot be keyed (parallel arrays) is a candidate for every query. Declared sparse so the
   * library does not expect it to locate documents (the `_id` index does that).
   */
  static final class SecondaryIndex extends Index<Object> {
    private final Map<KeyValue, Set<Object>> byKeys = new HashMap<>();
    private final Map<Object, Set<Object>> byFirstKey = new HashMap<>();
    private final Set<Object> unkeyed = new LinkedHashSet<>();
    private long count;

    SecondaryIndex(String name, List<IndexKey> keys) {
      super(name, keys, true);
    }

    private static boolean isPlainValue(Object value) {
      return value instanceof String || value instanceof Number || value instanceof Boolean || value instanceof ObjectId;
    }

    private static Object positionOf(Document document) {
      return document.get("_id");
    }

    @Override
    public Object getPosition(Document document) {
      return null;
    }

    @Override
    public void checkAdd(Document document, MongoCollection<Object> collection) {}

    @Override
    public synchronized void add(Document document, Object position, MongoCollection<Object> collection) {
      count += 1;
      Set<KeyValue> keyValues;
      try {
        keyValues = getKeyValues(document);
      } catch (RuntimeException cannotKey) {
        unkeyed.add(position);
        return;
      }
      for (KeyValue keyValue : keyValues) {
        byKeys.computeIfAbsent(keyValue, any -> new LinkedHashSet<>()).add(position);
        byFirstKey.computeIfAbsent(keyValue.get(0), any -> new LinkedHashSet<>()).add(position);
      }
    }

    @Override
    public synchronized Object remove(Document document) {
      Object position = positionOf(document);
      count -= 1;
      if (unkeyed.remove(position)) return null;
      for (KeyValue keyValue : getKeyValues(document)) {
        removeFrom(byKeys, keyValue, position);
        removeFrom(byFirstKey, keyValue.get(0), position);
      }
      return null;
    }

    private static <K> void removeFrom(Map<K, Set<Object>> map, K key, Object position) {
      Set<Object> positions = map.get(key);
      if (positions == null) return;
      positions.remove(position);
      if (positions.isEmpty()) map.remove(key);
    }

    @Override
    public synchronized boolean canHandle(Document query) {
      List<IndexKey> keys = getKeys();
      boolean allKeys = query.size() == keys.size();
      boolean firstKey = query.size() == 1 && query.containsKey(keys.get(0).getKey());
      if (!allKeys && !firstKey) return false;
      for (IndexKey key : keys) {
        if (allKeys && !query.containsKey(key.getKey())) return false;
      }
      return query.values().stream().allMatch(SecondaryIndex::isPlainValue);
    }

    @Override
    public synchronized Iterable<Object> getPositions(Document query) {
      List<Object> values = new ArrayList<>(query.size());
      for (IndexKey key : getKeys()) {
        if (query.containsKey(key.getKey())) values.add(query.get(key.getKey()));
      }
      KeyValue queried = new KeyValue(values).normalized();
      Set<Object> found =
          values.size() == getKeys().size() ? byKeys.get(queried) : byFirstKey.get(queried.get(0));
      List<Object> positions = new ArrayList<>(unkeyed);
      if (found != null) positions.addAll(found);
      return positions;
    }

    @Override
    public synchronized long getCount() {
      return count;
    }

    @Override
    public long getDataSize() {
      return 0;
    }

    @Override
    public void checkUpdate(Document oldDocument, Document newDocument, MongoCollection<Object> collection) {}

    @Override
    public synchronized void updateInPlace(
        Document oldDocument, Document newDocument, Object position, MongoCollection<Object> collection) {
      remove(oldDocument);
      add(newDocument, position, collection);
    }

    @Override
    public synchronized void drop() {
      byKeys.clear();
      byFirstKey.clear();
      unkeyed.clear();
      count = 0;
    }
  }
}
