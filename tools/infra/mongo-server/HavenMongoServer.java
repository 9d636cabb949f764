import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.AbstractUniqueIndex;
import de.bwaldvogel.mongo.backend.ArrayFilters;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.DatabaseResolver;
import de.bwaldvogel.mongo.backend.DefaultQueryMatcher;
import de.bwaldvogel.mongo.backend.DocumentComparator;
import de.bwaldvogel.mongo.backend.DocumentWithPosition;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.KeyValue;
import de.bwaldvogel.mongo.backend.Missing;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.Utils;
import de.bwaldvogel.mongo.backend.ValueComparator;
import de.bwaldvogel.mongo.bson.BsonRegularExpression;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.bson.ObjectId;
import de.bwaldvogel.mongo.exception.MongoServerError;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Collection;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.oplog.Oplog;
import de.bwaldvogel.mongo.wire.bson.BsonDecoder;
import de.bwaldvogel.mongo.wire.bson.BsonEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Haven's embedded MongoDB-compatible server for development and tests: mongo-java-server with its
 * H2 (MVStore) backend, persistent to one file, listening on the given host and port.
 *
 * Usage: java -cp 'libs/*:classes' HavenMongoServer HOST PORT DATA_FILE
 *
 * The library's own H2MongoServer main is fixed to localhost:27017; tests need free ports.
 *
 * Beyond the library (docs/decisions/development-and-tests/development-database.md): documents are stored as BSON and a
 * query reads only the fields it needs (Stored); non-unique and compound indexes are kept, ordered, in memory
 * (SecondaryIndex) and serve equality, sorted pages and counts (Collection, IndexPlan); the count shapes of
 * `aggregate` are answered by the collection's count (Database). Conformance:
 * tools/infra/test/mongo-conformance.int.test.ts.
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
    /**
     * MVStore's page cache (MB; the library keeps H2's 16). Documents are stored as BSON bytes, whose size the
     * cache accounts closely, so this is about the heap it takes: the bench's 100,000 users (about 43 MB of BSON;
     * 146 MB with three outbox events each) are read from memory, within the 1 GiB heap.
     */
    private static final int CACHE_MB = 128;

    Backend(String dataFile) {
      super(new MVStore.Builder().fileName(dataFile).cacheSize(CACHE_MB).open());
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
     * Unique indexes (`_id`, an e-mail) in memory too: the library's are H2 maps keyed by a class H2 can only
     * compare by serialising it, so each lookup (every insert, upsert and `_id` read) serialised a dozen keys,
     * a third of the server's time under a write load. Rebuilt from the documents when the store opens
     * (Collection.addIndex).
     */
    @Override
    protected Index<Object> openOrCreateUniqueIndex(
        String collectionName, String indexName, List<IndexKey> keys, boolean sparse) {
      return new UniqueIndex(indexName, keys, sparse);
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

    /**
     * The library runs every aggregation over the whole collection, fully read, and `$match` filters the
     * stream: `countDocuments` (the driver's `[$match, $skip?, $limit?, $group {_id: const, n: {$sum: 1}}]`) and
     * `[$match, $count]` never use an index. Those exact shapes are the collection's count of the filter, which
     * uses the indexes (Collection.count); every other pipeline goes to the library unchanged.
     */
    @Override
    public Document handleCommand(
        Channel channel, String command, Document query, DatabaseResolver databaseResolver, Oplog oplog) {
      if (command.equalsIgnoreCase("aggregate")) {
        CountPipeline count = query.get(command) instanceof String ? CountPipeline.of(query) : null;
        MongoCollection<Object> collection =
            count == null ? null : resolveCollection((String) query.get(command), false);
        if (collection != null) {
          clearLastStatus(channel);
          int counted = collection.count(count.filter, count.skip, count.limit);
          List<Document> batch = new ArrayList<>();
          if (counted > 0) batch.add(count.answer(counted));
          Document cursor = new Document("id", Long.valueOf(0));
          cursor.put("ns", getFullCollectionNamespace(collection.getCollectionName()));
          cursor.put("firstBatch", batch);
          Document response = new Document("cursor", cursor);
          Utils.markOkay(response);
          return response;
        }
      }
      return super.handleCommand(channel, command, query, databaseResolver, oplog);
    }
  }

  /** An `aggregate` command that only counts the documents matching a filter (see Database.handleCommand). */
  static final class CountPipeline {
    final Document filter;
    final int skip;
    final int limit;
    /** `$group`'s constant `_id` (absent for `$count`) and the name of the count field. */
    private final Object groupId;
    private final boolean grouped;
    private final String field;

    private CountPipeline(Document filter, int skip, int limit, boolean grouped, Object groupId, String field) {
      this.filter = filter;
      this.skip = skip;
      this.limit = limit;
      this.grouped = grouped;
      this.groupId = groupId;
      this.field = field;
    }

    Document answer(int count) {
      Document answer = new Document();
      if (grouped) answer.put("_id", groupId);
      answer.put(field, Integer.valueOf(count));
      return answer;
    }

    private static boolean isConstant(Object value) {
      return value == null
          || value instanceof Number
          || value instanceof Boolean
          || (value instanceof String && !((String) value).startsWith("$"));
    }

    private static boolean isWholeNumber(Object value) {
      return value instanceof Integer || value instanceof Long;
    }

    /** The count this command asks for, or null when it asks for anything else (or anything unusual). */
    static CountPipeline of(Document command) {
      if (!(command.get("cursor") instanceof Document) || command.containsKey("explain")) return null;
      if (!(command.get("pipeline") instanceof List)) return null;
      List<?> stages = (List<?>) command.get("pipeline");
      int next = 0;
      Document filter = new Document();
      int skip = 0;
      int limit = 0;
      if (next < stages.size() && stage(stages.get(next), "$match") instanceof Document) {
        filter = (Document) stage(stages.get(next), "$match");
        next += 1;
      }
      if (next < stages.size() && isWholeNumber(stage(stages.get(next), "$skip"))) {
        long value = ((Number) stage(stages.get(next), "$skip")).longValue();
        if (value < 0 || value > Integer.MAX_VALUE) return null;
        skip = (int) value;
        next += 1;
      }
      if (next < stages.size() && isWholeNumber(stage(stages.get(next), "$limit"))) {
        long value = ((Number) stage(stages.get(next), "$limit")).longValue();
        if (value <= 0 || value > Integer.MAX_VALUE) return null;
        limit = (int) value;
        next += 1;
      }
      if (next != stages.size() - 1) return null;
      Object last = stages.get(next);
      Object counted = stage(last, "$count");
      if (counted instanceof String) {
        String name = (String) counted;
        if (name.isEmpty() || name.startsWith("$") || name.contains(".") || name.equals("_id")) return null;
        return new CountPipeline(filter, skip, limit, false, null, name);
      }
      if (stage(last, "$group") instanceof Document) {
        Document group = (Document) stage(last, "$group");
        if (group.size() != 2 || !group.containsKey("_id") || !isConstant(group.get("_id"))) return null;
        for (String name : group.keySet()) {
          if (name.equals("_id")) continue;
          Object sum = group.get(name);
          if (name.startsWith("$") || name.contains(".") || !(sum instanceof Document)) return null;
          Document accumulator = (Document) sum;
          Object one = accumulator.get("$sum");
          if (accumulator.size() != 1 || !(one instanceof Integer || one instanceof Long)) return null;
          if (((Number) one).longValue() != 1) return null;
          return new CountPipeline(filter, skip, limit, true, group.get("_id"), name);
        }
      }
      return null;
    }

    private static Object stage(Object stage, String name) {
      if (!(stage instanceof Document)) return null;
      Document document = (Document) stage;
      return document.size() == 1 ? document.get(name) : null;
    }
  }

  /**
   * A collection whose documents are stored as BSON, read field by field, and whose queries use the
   * in-memory indexes for narrowing, sorting and counting.
   *
   * Storage: the library keeps each document as a Java-serialised object; reading one (the whole of it, its
   * outbox of events included) is most of the cost of every scan. Here a document is stored as its BSON bytes
   * (the wire format, so nothing the clients can send is lost); a query decodes only the fields its filter
   * and sort name, and only the documents it returns are decoded whole (or only their projected fields).
   * Values written by an older launcher (Java-serialised documents) are still read, and rewritten as BSON when
   * the collection opens. A document holding a date finer than a millisecond (only `$currentDate` makes one)
   * is kept the old way, so what is stored stays exactly what the indexes were given.
   *
   * Queries, in order: a unique index that can answer the filter alone (the library's lookup); unless a unique
   * index narrows the filter (a point lookup), a sorted query whose sort an index provides (after equality on
   * its leading keys): the index is walked in order and the walk stops after skip + limit matches (IndexPlan);
   * a non-unique index answering the filter, or narrowing it (a unique or non-unique index whose keys the filter
   * names with equality); else every document, each decoded only as far as the filter and the sort need.
   * Conformance: "narrow a query that names the key and more", "answer by non-unique and compound indexes
   * exactly as a scan would", "sorted pages and counts from indexes".
   */
  static final class Collection extends H2Collection {
    /** H2Collection's map (private there), read and written here: values are byte[] (BSON) or Document. */
    private final MVMap<Object, Object> store;

    @SuppressWarnings({"unchecked", "rawtypes"})
    Collection(
        MongoDatabase database,
        String collectionName,
        CollectionOptions options,
        MVMap<Object, Document> dataMap,
        MVMap<String, Object> metaMap,
        CursorRegistry cursorRegistry) {
      super(database, collectionName, options, dataMap, metaMap, cursorRegistry);
      this.store = (MVMap) dataMap;
      rewriteOlderValues();
    }

    /** Documents written by an older launcher (Java-serialised) become BSON, once, when the store opens. */
    private void rewriteOlderValues() {
      List<Object> older = new ArrayList<>();
      for (Map.Entry<Object, Object> entry : store.entrySet()) {
        if (entry.getValue() instanceof Document) older.add(entry.getKey());
      }
      for (Object key : older) {
        Object value = store.get(key);
        if (value instanceof Document) store.put(key, Stored.encode((Document) value));
      }
    }

    // ---- storage: the H2Collection methods that touch the map, for BSON values ----

    @Override
    protected Object addDocumentInternal(Document document) {
      Object key = getIdField() != null ? Utils.getSubdocumentValue(document, getIdField()) : UUID.randomUUID();
      Object previous = store.putIfAbsent(Missing.ofNullable(key), Stored.encode(document));
      if (previous != null) {
        throw new IllegalStateException("Document with key '" + key + "' already existed in " + this);
      }
      return key;
    }

    @Override
    protected Document getDocument(Object position) {
      return Stored.decode(store.get(position), null);
    }

    @Override
    protected void removeDocument(Object position) {
      if (store.remove(position) == null) throw new NoSuchElementException("No document with key " + position);
    }

    @Override
    protected Stream<DocumentWithPosition<Object>> streamAllDocumentsWithPosition() {
      return store.entrySet().stream()
          .map(entry -> new DocumentWithPosition<>(Stored.decode(entry.getValue(), null), entry.getKey()));
    }

    @Override
    protected void handleUpdate(Object position, Document oldDocument, Document newDocument) {
      store.put(Missing.ofNullable(position), Stored.encode(newDocument));
    }

    /**
     * A new non-unique index is built from the documents' key fields alone (the library would read every
     * document whole, twice); a restart rebuilds each index this way.
     */
    @Override
    public void addIndex(Index<Object> index) {
      boolean known = getIndexes().stream().anyMatch(existing -> existing.getName().equals(index.getName()));
      boolean inMemory = index instanceof SecondaryIndex || index instanceof UniqueIndex;
      if (!known && inMemory && index.isEmpty()) {
        Fields keyFields = Fields.of(index.getKeys().stream().map(key -> key.getKey()));
        for (Map.Entry<Object, Object> entry : store.entrySet()) {
          index.add(Stored.decode(entry.getValue(), keyFields), entry.getKey(), this);
        }
      }
      super.addIndex(index);
    }

    // ---- updates ----

    /**
     * `$bit` (`and`, `or`, `xor` on 32- and 64-bit integers; a missing field counts as 0), which the library
     * refuses. Each matched document's results are worked out here and written with `$set`, all under the
     * collection's lock, so the update stays one atomic step, as MongoDB's.
     */
    @Override
    public synchronized Document updateDocuments(
        Document selector, Document update, ArrayFilters arrayFilters, boolean multi, boolean upsert, Oplog oplog) {
      if (!(update.get("$bit") instanceof Document)) {
        return super.updateDocuments(selector, update, arrayFilters, multi, upsert, oplog);
      }
      List<Document> matched = new ArrayList<>();
      for (Document document : queryDocuments(selector, null, 0, 0, 0, null)) {
        matched.add(document);
        if (!multi) break;
      }
      if (matched.isEmpty()) {
        return super.updateDocuments(selector, Bits.asSet(update, new Document()), arrayFilters, multi, upsert, oplog);
      }
      int found = 0;
      int modified = 0;
      for (Document document : matched) {
        Document one =
            super.updateDocuments(
                new Document(getIdField(), document.get(getIdField())),
                Bits.asSet(update, document),
                arrayFilters,
                false,
                false,
                oplog);
        found += ((Number) one.get("n")).intValue();
        modified += ((Number) one.get("nModified")).intValue();
      }
      return new Document("n", found).append("nModified", modified);
    }

    // ---- queries ----

    @Override
    protected QueryResult queryDocuments(
        Document query, Document orderBy, int numberToSkip, int limit, int batchSize, Document fieldSelector) {
      synchronized (this) {
        for (Index<Object> index : getIndexes()) {
          if (!(index instanceof SecondaryIndex) && index.canHandle(query)) {
            return matchDocuments(
                query, index.getPositions(query), orderBy, numberToSkip, limit, batchSize, fieldSelector);
          }
        }
        if (Sort.isIndexable(orderBy) && !isPointLookup(query)) {
          IndexPlan plan = bestPlan(query, orderBy);
          if (plan != null && (plan.narrowed() || !plan.readsDocuments() || !anyIndexNarrows(query))) {
            Fields output = Fields.ofProjection(fieldSelector, getIdField());
            List<Document> page = plan.walk(this, numberToSkip, limit, output);
            if (page != null) return finish(page.stream(), batchSize, fieldSelector);
          }
        }
        for (Index<Object> index : getIndexes()) {
          if (index instanceof SecondaryIndex && index.canHandle(query)) {
            return matchDocuments(
                query, index.getPositions(query), orderBy, numberToSkip, limit, batchSize, fieldSelector);
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
        return matchDocuments(query, orderBy, numberToSkip, limit, batchSize, fieldSelector);
      }
    }

    /** Whether a unique index answers the filter or narrows it by equality (`_id`, an e-mail): a few documents. */
    private boolean isPointLookup(Document query) {
      for (Index<Object> index : getIndexes()) {
        if (index instanceof SecondaryIndex) continue;
        if (index.canHandle(query)) return true;
        for (Document narrowing : narrowingsOf(query, index)) {
          if (index.canHandle(narrowing)) return true;
        }
      }
      return false;
    }

    /** Whether an index answers or narrows the filter by equality (the paths after the ordered walk). */
    private boolean anyIndexNarrows(Document query) {
      for (Index<Object> index : getIndexes()) {
        if (index.canHandle(query)) return true;
        for (Document narrowing : narrowingsOf(query, index)) {
          if (index.canHandle(narrowing)) return true;
        }
      }
      return false;
    }

    /**
     * The index that provides the sort (or, for a count, narrows the filter) best: the most leading keys
     * held equal, a range on the next key, and the fewest conditions left to read documents for. Null when
     * no index provides the sort.
     */
    private IndexPlan bestPlan(Document query, Document orderBy) {
      IndexPlan best = null;
      for (Index<Object> index : getIndexes()) {
        if (!(index instanceof SecondaryIndex)) continue;
        IndexPlan plan = ((SecondaryIndex) index).plan(query, orderBy);
        if (plan != null && (best == null || plan.isBetterThan(best))) best = plan;
      }
      return best;
    }

    /** Every document: read in storage order, each decoded only as far as the filter and sort need. */
    @Override
    protected QueryResult matchDocuments(
        Document query, Document orderBy, int numberToSkip, int limit, int batchSize, Document fieldSelector) {
      Iterator<Map.Entry<Object, Object>> entries = store.entrySet().iterator();
      Iterator<Object[]> source =
          new Iterator<>() {
            public boolean hasNext() {
              return entries.hasNext();
            }

            public Object[] next() {
              Map.Entry<Object, Object> entry = entries.next();
              return new Object[] {entry.getKey(), entry.getValue()};
            }
          };
      if (Sort.isNaturalDescending(orderBy)) {
        List<Object[]> all = new ArrayList<>();
        source.forEachRemaining(all::add);
        all.sort((a, b) -> ValueComparator.desc().compare(a[0], b[0]));
        source = all.iterator();
      }
      return select(source, query, orderBy, numberToSkip, limit, batchSize, fieldSelector);
    }

    /** The documents at these positions (an index's answer), read as in matchDocuments. */
    @Override
    protected QueryResult matchDocuments(
        Document query,
        Iterable<Object> positions,
        Document orderBy,
        int numberToSkip,
        int limit,
        int batchSize,
        Document fieldSelector) {
      Iterator<Object> each = positions.iterator();
      Iterator<Object[]> source =
          new Iterator<>() {
            public boolean hasNext() {
              return each.hasNext();
            }

            public Object[] next() {
              Object position = each.next();
              return new Object[] {position, store.get(position)};
            }
          };
      return select(source, query, orderBy, numberToSkip, limit, batchSize, fieldSelector);
    }

    /** Raw stored value of a position (byte[] or Document), or null when gone. */
    Object rawAt(Object position) {
      return store.get(position);
    }

    /**
     * Filters the (position, stored value) pairs, sorts the matches, applies skip and limit, and only then
     * decodes what is returned. The filter and the sort see the fields they name, decoded exactly as a whole
     * document would give them, so they answer as on the whole document.
     */
    private QueryResult select(
        Iterator<Object[]> source,
        Document query,
        Document orderBy,
        int numberToSkip,
        int limit,
        int batchSize,
        Document fieldSelector) {
      Fields output = Fields.ofProjection(fieldSelector, getIdField());
      Fields read = Fields.ofQuery(query).and(Sort.fields(orderBy));
      DefaultQueryMatcher matcher = new DefaultQueryMatcher();
      Document filter = Patterns.compiledOnce(query);
      List<Object[]> matches = new ArrayList<>();
      while (source.hasNext()) {
        Object[] candidate = source.next();
        if (candidate[1] == null) continue;
        Document partial = Stored.decode(candidate[1], read);
        if (matcher.matches(partial, filter)) matches.add(new Object[] {candidate[0], candidate[1], partial});
      }
      Comparator<Document> comparator = Sort.comparator(orderBy);
      if (comparator != null) matches.sort((a, b) -> comparator.compare((Document) a[2], (Document) b[2]));
      Stream<Object[]> chosen = matches.stream();
      if (numberToSkip > 0) chosen = chosen.skip(numberToSkip);
      if (limit > 0) chosen = chosen.limit(limit);
      Stream<Document> documents =
          chosen.map(match -> read.coversAll() ? (Document) match[2] : Stored.decode(match[1], output));
      return finish(documents, batchSize, fieldSelector);
    }

    /** Projection and the first batch, as the library does them. */
    private QueryResult finish(Stream<Document> documents, int batchSize, Document fieldSelector) {
      return matchDocumentsFromStream(new Document(), documents, 0, 0, batchSize, null, fieldSelector);
    }

    /**
     * Counts without reading documents where an index can: the filter's conditions on an index's keys are
     * checked on the index's entries, and only conditions on other fields read (those fields of) the
     * documents. `count`, `countDocuments` and `$count` all come here.
     */
    @Override
    public int count(Document query, int skip, int limit) {
      synchronized (this) {
        if (query == null || query.isEmpty() || isPointLookup(query)) return super.count(query, skip, limit);
        int counted = -1;
        for (Index<Object> index : getIndexes()) {
          if (counted < 0 && index instanceof SecondaryIndex) counted = ((SecondaryIndex) index).countOfFirstKey(query);
        }
        if (counted < 0) {
          IndexPlan plan = bestPlan(query, null);
          boolean useful = plan != null && (plan.narrowed() || !anyIndexNarrows(query));
          counted = useful ? plan.count(this) : -1;
        }
        if (counted < 0) return super.count(query, skip, limit);
        counted = Math.max(0, counted - Math.max(skip, 0));
        return limit > 0 ? Math.min(limit, counted) : counted;
      }
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

  /** `$bit` as the `$set` of its results on one document (Collection.updateDocuments). */
  static final class Bits {
    private Bits() {}

    static Document asSet(Document update, Document document) {
      Document rewritten = new Document();
      for (Map.Entry<String, Object> operator : update.entrySet()) {
        if (!operator.getKey().equals("$bit")) rewritten.put(operator.getKey(), operator.getValue());
      }
      Document set = new Document();
      if (rewritten.get("$set") instanceof Document) set.putAll((Document) rewritten.get("$set"));
      for (Map.Entry<String, Object> field : ((Document) update.get("$bit")).entrySet()) {
        String path = field.getKey();
        if (set.containsKey(path)) {
          throw new MongoServerError(40, "Updating the path '" + path + "' would create a conflict at '" + path + "'");
        }
        if (!(field.getValue() instanceof Document) || ((Document) field.getValue()).isEmpty()) {
          throw new MongoServerError(9, "$bit needs a document of and, or or xor for '" + path + "'");
        }
        Object current = Utils.getSubdocumentValue(document, path);
        set.put(path, apply(path, current instanceof Missing || current == null ? 0 : current, (Document) field.getValue()));
      }
      rewritten.put("$set", set);
      return rewritten;
    }

    private static Object apply(String path, Object current, Document operations) {
      Object result = current;
      for (Map.Entry<String, Object> operation : operations.entrySet()) {
        Object operand = operation.getValue();
        if (!isIntegral(result) || !isIntegral(operand)) {
          throw new MongoServerError(
              14, "Cannot apply $bit to a value of non-integral type at '" + path + "'");
        }
        long a = ((Number) result).longValue();
        long b = ((Number) operand).longValue();
        long value;
        switch (operation.getKey()) {
          case "and":
            value = a & b;
            break;
          case "or":
            value = a | b;
            break;
          case "xor":
            value = a ^ b;
            break;
          default:
            throw new MongoServerError(
                2, "The $bit modifier only supports 'and', 'or', and 'xor', not '" + operation.getKey() + "'");
        }
        boolean wide = result instanceof Long || operand instanceof Long;
        result = wide ? (Object) value : (Object) (int) value;
      }
      return result;
    }

    private static boolean isIntegral(Object value) {
      return value instanceof Integer || value instanceof Long;
    }
  }

  /**
   * The library's matcher compiles a `{ $regex, $options }` condition into a java.util.regex.Pattern again for
   * every document it looks at (a sixth of a search's time); its BsonRegularExpression compiles once and keeps
   * the Pattern. The matcher treats both forms alike, so a filter about to be matched against many documents
   * gets its plain regex conditions (exactly `$regex`, with `$options` or not) as BsonRegularExpressions, through
   * `$and`, `$or` and `$nor`. Only for matching: index selection sees the query as sent.
   */
  static final class Patterns {
    private Patterns() {}

    static Document compiledOnce(Document query) {
      Document compiled = new Document();
      for (Map.Entry<String, Object> condition : query.entrySet()) {
        String key = condition.getKey();
        Object value = condition.getValue();
        if ((key.equals("$and") || key.equals("$or") || key.equals("$nor")) && value instanceof List) {
          List<Object> parts = new ArrayList<>();
          for (Object part : (List<?>) value) {
            parts.add(part instanceof Document ? compiledOnce((Document) part) : part);
          }
          value = parts;
        } else if (!key.startsWith("$") && isPlainRegex(value)) {
          Document regex = (Document) value;
          Object options = regex.get("$options");
          value = new BsonRegularExpression((String) regex.get("$regex"), options == null ? "" : (String) options);
        }
        compiled.put(key, value);
      }
      return compiled;
    }

    private static boolean isPlainRegex(Object value) {
      if (!(value instanceof Document)) return false;
      Document document = (Document) value;
      if (!(document.get("$regex") instanceof String)) return false;
      if (document.size() == 1) return true;
      return document.size() == 2 && document.get("$options") instanceof String;
    }
  }

  /** Sort specifications: which the indexes can provide, and which fields they read. */
  static final class Sort {
    private Sort() {}

    static boolean isNaturalDescending(Document orderBy) {
      if (orderBy == null || orderBy.isEmpty()) return false;
      String first = orderBy.keySet().iterator().next();
      return first.equals("$natural") && ((Number) orderBy.get(first)).intValue() == -1;
    }

    /** A sort by fields (not `$natural`), each ascending or descending. */
    static boolean isIndexable(Document orderBy) {
      if (orderBy == null || orderBy.isEmpty()) return false;
      for (Map.Entry<String, Object> key : orderBy.entrySet()) {
        if (key.getKey().startsWith("$")) return false;
        if (!(key.getValue() instanceof Number)) return false;
        int direction = ((Number) key.getValue()).intValue();
        if (direction != 1 && direction != -1) return false;
      }
      return true;
    }

    /** As the library sorts a scan: by the fields given, unless the sort is `$natural` (storage order). */
    static Comparator<Document> comparator(Document orderBy) {
      if (orderBy == null || orderBy.isEmpty() || orderBy.keySet().iterator().next().equals("$natural")) return null;
      return new DocumentComparator(orderBy);
    }

    static Fields fields(Document orderBy) {
      if (comparator(orderBy) == null) return Fields.NONE;
      return Fields.of(orderBy.keySet().stream());
    }
  }

  /**
   * A set of top-level field names to decode (the first segment of each path), or all of them. Names are kept
   * as UTF-8 too, to be compared with the stored bytes without making strings.
   */
  static final class Fields {
    static final Fields ALL = new Fields(null);
    static final Fields NONE = new Fields(new LinkedHashSet<>());

    private final Set<String> names;
    final String[] list;
    final byte[][] utf8;

    private Fields(Set<String> names) {
      this.names = names;
      this.list = names == null ? null : names.toArray(new String[0]);
      this.utf8 = new byte[list == null ? 0 : list.length][];
      for (int i = 0; i < utf8.length; i++) utf8[i] = list[i].getBytes(StandardCharsets.UTF_8);
    }

    boolean coversAll() {
      return names == null;
    }

    static Fields of(Stream<String> paths) {
      Set<String> names = new LinkedHashSet<>();
      paths.forEach(path -> names.add(firstSegment(path)));
      return new Fields(names);
    }

    private static String firstSegment(String path) {
      int dot = path.indexOf('.');
      return dot < 0 ? path : path.substring(0, dot);
    }

    Fields and(Fields other) {
      if (names == null || other.names == null) return ALL;
      Set<String> union = new LinkedHashSet<>(names);
      union.addAll(other.names);
      return new Fields(union);
    }

    /**
     * The fields a filter reads: each field it names, through `$and`, `$or` and `$nor`. Anything else at the top
     * level (`$expr`, `$where`, `$text`, …) may read any field.
     */
    static Fields ofQuery(Document query) {
      Set<String> names = new LinkedHashSet<>();
      return collect(query, names) ? new Fields(names) : ALL;
    }

    private static boolean collect(Document query, Set<String> names) {
      for (Map.Entry<String, Object> condition : query.entrySet()) {
        String key = condition.getKey();
        if (key.equals("$and") || key.equals("$or") || key.equals("$nor")) {
          if (!(condition.getValue() instanceof List)) return false;
          for (Object part : (List<?>) condition.getValue()) {
            if (!(part instanceof Document) || !collect((Document) part, names)) return false;
          }
        } else if (key.startsWith("$")) {
          return false;
        } else {
          names.add(firstSegment(key));
        }
      }
      return true;
    }

    /** The fields an inclusion projection returns (with the id); ALL for none, exclusions or operators. */
    static Fields ofProjection(Document projection, String idField) {
      if (projection == null || projection.isEmpty() || idField == null) return ALL;
      Set<String> names = new LinkedHashSet<>();
      names.add(idField);
      for (Map.Entry<String, Object> field : projection.entrySet()) {
        String key = field.getKey();
        if (key.contains("$")) return ALL;
        if (!Utils.isTrue(field.getValue())) {
          if (key.equals(idField)) continue;
          return ALL;
        }
        names.add(firstSegment(key));
      }
      return new Fields(names);
    }
  }

  /**
   * Documents as stored: BSON bytes, encoded and decoded by the library's own wire codec (so a stored document
   * reads back exactly as the client sent it), or a Document written by an older launcher. Decoding can stop
   * at the fields asked for: the others are stepped over by their lengths, never built.
   */
  static final class Stored {
    private Stored() {}

    static Object encode(Document document) {
      if (hasFinerThanMillisecondDate(document)) return document;
      ByteBuf buffer = Unpooled.buffer(512);
      try {
        BsonEncoder.encodeDocument(document, buffer);
        byte[] bytes = new byte[buffer.readableBytes()];
        buffer.readBytes(bytes);
        return bytes;
      } catch (RuntimeException cannotEncode) {
        // A value the wire format has no type for: kept as the library keeps it.
        return document;
      } finally {
        buffer.release();
      }
    }

    private static boolean hasFinerThanMillisecondDate(Object value) {
      if (value instanceof Instant) return ((Instant) value).getNano() % 1_000_000 != 0;
      if (value instanceof Document) {
        for (Object field : ((Document) value).values()) {
          if (hasFinerThanMillisecondDate(field)) return true;
        }
      } else if (value instanceof java.util.Collection) {
        for (Object element : (java.util.Collection<?>) value) {
          if (hasFinerThanMillisecondDate(element)) return true;
        }
      }
      return false;
    }

    /** The document, or only the given top-level fields of it (in stored order), each decoded whole. */
    static Document decode(Object stored, Fields fields) {
      if (stored == null) return null;
      if (stored instanceof Document) return (Document) stored;
      byte[] bson = (byte[]) stored;
      ByteBuf buffer = Unpooled.wrappedBuffer(bson);
      if (fields == null || fields.coversAll()) return BsonDecoder.decodeBson(buffer);
      Document document = new Document();
      if (fields.list.length == 0) return document;
      int found = 0;
      int at = 4;
      while (at < bson.length && found < fields.list.length) {
        byte type = bson[at++];
        if (type == 0) break;
        int nameStart = at;
        while (bson[at] != 0) at++;
        int wanted = indexOf(fields.utf8, bson, nameStart, at);
        at += 1;
        if (wanted >= 0) {
          buffer.readerIndex(at);
          document.put(fields.list[wanted], BsonDecoder.decodeValue(type, buffer));
          at = buffer.readerIndex();
          found += 1;
        } else {
          at = skipValue(type, bson, at);
        }
      }
      return document;
    }

    private static int indexOf(byte[][] names, byte[] bson, int start, int end) {
      int length = end - start;
      for (int i = 0; i < names.length; i++) {
        byte[] name = names[i];
        if (name.length != length) continue;
        int j = 0;
        while (j < length && name[j] == bson[start + j]) j++;
        if (j == length) return i;
      }
      return -1;
    }

    private static int int32(byte[] bson, int at) {
      return (bson[at] & 0xff) | (bson[at + 1] & 0xff) << 8 | (bson[at + 2] & 0xff) << 16 | (bson[at + 3] & 0xff) << 24;
    }

    private static int afterCString(byte[] bson, int at) {
      while (bson[at] != 0) at++;
      return at + 1;
    }

    /** Where the value of this BSON type starting at `at` ends. */
    private static int skipValue(byte type, byte[] bson, int at) {
      switch (type) {
        case 0x01: // double
        case 0x09: // date
        case 0x11: // timestamp
        case 0x12: // int64
          return at + 8;
        case 0x02: // string
        case 0x0D: // JavaScript
        case 0x0E: // symbol
          return at + 4 + int32(bson, at);
        case 0x03: // document
        case 0x04: // array
        case 0x0F: // JavaScript with scope
          return at + int32(bson, at);
        case 0x05: // binary: length, subtype, bytes
          return at + 5 + int32(bson, at);
        case 0x06: // undefined
        case 0x0A: // null
        case 0x7F: // max key
        case (byte) 0xFF: // min key
          return at;
        case 0x07: // ObjectId
          return at + 12;
        case 0x08: // boolean
          return at + 1;
        case 0x0B: // regular expression: pattern, options
          return afterCString(bson, afterCString(bson, at));
        case 0x0C: // DBPointer: string, ObjectId
          return at + 4 + int32(bson, at) + 12;
        case 0x10: // int32
          return at + 4;
        case 0x13: // decimal128
          return at + 16;
        default:
          throw new IllegalStateException("unknown BSON type 0x" + Integer.toHexString(type & 0xff));
      }
    }
  }

  /**
   * One index entry in key order: the values of the index's keys and the document's position. LOW and HIGH
   * bound ranges: they sort before and after every value, whatever the key's direction.
   */
  static final class Entry {
    static final Object LOW = new Object();
    static final Object HIGH = new Object();

    final Object[] values;
    final Object position;

    Entry(Object[] values, Object position) {
      this.values = values;
      this.position = position;
    }

    private static int bound(Object value) {
      return value == LOW ? -1 : value == HIGH ? 1 : 0;
    }

    /** MongoDB's order (the library's ValueComparator, as its sort uses), per key direction, then position. */
    static Comparator<Entry> order(List<IndexKey> keys) {
      ValueComparator[] comparators = new ValueComparator[keys.size()];
      for (int i = 0; i < comparators.length; i++) {
        comparators[i] = keys.get(i).isAscending() ? ValueComparator.asc() : ValueComparator.desc();
      }
      return (a, b) -> {
        for (int i = 0; i < comparators.length; i++) {
          int cmp = compare(comparators[i], a.values[i], b.values[i]);
          if (cmp != 0) return cmp;
        }
        return compare(ValueComparator.asc(), a.position, b.position);
      };
    }

    private static int compare(ValueComparator comparator, Object a, Object b) {
      int boundA = bound(a);
      int boundB = bound(b);
      if (boundA != 0 || boundB != 0) return Integer.compare(boundA, boundB);
      return comparator.compare(a, b);
    }
  }

  /**
   * A non-unique index, kept in memory and rebuilt from the documents when the server opens the store (the
   * library builds an empty index from the collection). Two views of the same entries:
   *
   * - by key value (hash maps): equality on plain values (string, number, boolean, ObjectId) of all its keys,
   *   or of its first key (a prefix, as MongoDB's compound indexes do); it only has to return a superset, the
   *   collection matches the whole query on what it returns. A document whose keys cannot be keyed
   *   (parallel arrays) is a candidate for every query.
   * - in key order (a sorted set, MongoDB's comparison order, each key ascending or descending): sorted pages
   *   and counts (IndexPlan). Only while every entry has one plain value per key: a document with an array or
   *   an embedded document under a key (MongoDB's multikey case) turns the ordered view off until it is gone.
   *
   * Declared sparse so the library does not expect it to locate documents (the `_id` index does that).
   */
  static final class SecondaryIndex extends Index<Object> {
    private final Map<KeyValue, Set<Object>> byKeys = new HashMap<>();
    private final Map<Object, Set<Object>> byFirstKey = new HashMap<>();
    private final Set<Object> unkeyed = new LinkedHashSet<>();
    private final TreeSet<Entry> ordered;
    private final Map<Object, Entry> entryOf = new HashMap<>();
    /** Positions of documents that have no single plain value per key (arrays, documents, parallel arrays). */
    private final Set<Object> unordered = new LinkedHashSet<>();
    private final String[] keyNames;
    private long count;

    SecondaryIndex(String name, List<IndexKey> keys) {
      super(name, keys, true);
      this.ordered = new TreeSet<>(Entry.order(keys));
      this.keyNames = keys.stream().map(IndexKey::getKey).toArray(String[]::new);
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
      addOrdered(document, position);
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

    private void addOrdered(Document document, Object position) {
      Object[] values = new Object[keyNames.length];
      for (int i = 0; i < values.length; i++) {
        Object value = Utils.getSubdocumentValueCollectionAware(document, keyNames[i]);
        if (value instanceof java.util.Collection || value instanceof Map) {
          unordered.add(position);
          return;
        }
        values[i] = value;
      }
      Entry entry = new Entry(values, position);
      ordered.add(entry);
      entryOf.put(position, entry);
    }

    @Override
    public synchronized Object remove(Document document) {
      Object position = positionOf(document);
      count -= 1;
      Entry entry = entryOf.remove(position);
      if (entry != null) ordered.remove(entry);
      unordered.remove(position);
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

    /**
     * The number of documents whose first key is the query's one plain value, when that is all the query asks
     * (a user's check-ins): the index keeps their positions, so the count reads nothing. -1 when it cannot say.
     */
    synchronized int countOfFirstKey(Document query) {
      if (query.size() != 1 || !unkeyed.isEmpty() || !unordered.isEmpty()) return -1;
      Object value = query.get(keyNames[0]);
      if (!isPlainValue(value)) return -1;
      Set<Object> found = byFirstKey.get(new KeyValue(List.of(value)).normalized().get(0));
      return found == null ? 0 : found.size();
    }

    /**
     * How this index would answer the query in the order of `orderBy` (null: any order, for a count), or null
     * when it cannot: its ordered view is off, or the sort is not its keys after the ones held equal.
     */
    synchronized IndexPlan plan(Document query, Document orderBy) {
      if (!unordered.isEmpty()) return null;
      return IndexPlan.of(this, query, orderBy);
    }

    String[] keyNames() {
      return keyNames;
    }

    NavigableSet<Entry> entries() {
      return ordered;
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
      ordered.clear();
      entryOf.clear();
      unordered.clear();
      count = 0;
    }
  }

  /**
   * A unique index in a hash map (Database.openOrCreateUniqueIndex); the library does the rest. Positions are kept
   * as H2's index keeps them (a null one as Missing).
   */
  static final class UniqueIndex extends AbstractUniqueIndex<Object> {
    private final Map<KeyValue, Object> positions = new ConcurrentHashMap<>();

    UniqueIndex(String name, List<IndexKey> keys, boolean sparse) {
      super(name, keys, sparse);
    }

    @Override
    protected Object removeDocument(KeyValue key) {
      return positions.remove(key);
    }

    @Override
    protected boolean putKeyPosition(KeyValue key, Object position) {
      return positions.putIfAbsent(key, Missing.ofNullable(position)) == null;
    }

    @Override
    protected Iterable<Map.Entry<KeyValue, Object>> getIterable() {
      return positions.entrySet();
    }

    @Override
    protected Object getPosition(KeyValue key) {
      return positions.get(key);
    }

    @Override
    public long getCount() {
      return positions.size();
    }

    @Override
    public boolean isEmpty() {
      return positions.isEmpty();
    }

    @Override
    public long getDataSize() {
      return getCount();
    }

    @Override
    public void drop() {
      positions.clear();
    }
  }

  /**
   * How one ordered index answers a query (MongoDB's IXSCAN, with its filter on index keys, then FETCH):
   *
   * - equality on the index's leading keys and a range ($gt, $gte, $lt, $lte, `$ne: null`) on the next one
   *   pick the stretches of the index to walk (a superset: every entry is still checked);
   * - the filter's conditions on the index's own keys (top-level fields) are checked on the entry alone;
   * - the other conditions read the document, decoded only as far as they need;
   * - a sort that is the index's keys after the equal ones (all in the index's directions, or all reversed)
   *   comes from walking in order, so a page stops after skip + limit matches.
   *
   * Without narrowing (no equality, no range) and with conditions left for the documents, a walk could read
   * every document one by one, in index order, to find a few matches. It is given twice the reads the page
   * needs (2 × (skip + limit) + 100, and none without a limit): a filter that keeps most documents (the outbox's
   * tombstone guard) pages by the walk, a rarer one (a search) gives up early and the query scans instead, as
   * MongoDB's planner drops the slower plan.
   */
  static final class IndexPlan {
    private final SecondaryIndex index;
    private final int equalKeys;
    private final boolean ranged;
    private final boolean reverse;
    private final List<Entry[]> stretches;
    private final Document onKeys;
    private final Document onDocument;
    private final Fields documentFields;
    private final Set<String> keyFields;

    private IndexPlan(
        SecondaryIndex index,
        int equalKeys,
        boolean ranged,
        boolean reverse,
        List<Entry[]> stretches,
        Document onKeys,
        Document onDocument,
        Set<String> keyFields) {
      this.index = index;
      this.equalKeys = equalKeys;
      this.ranged = ranged;
      this.reverse = reverse;
      this.stretches = stretches;
      this.onKeys = onKeys == null ? null : Patterns.compiledOnce(onKeys);
      this.onDocument = onDocument == null ? null : Patterns.compiledOnce(onDocument);
      this.documentFields = onDocument == null ? Fields.NONE : Fields.ofQuery(onDocument);
      this.keyFields = keyFields;
    }

    boolean narrowed() {
      return equalKeys > 0 || ranged;
    }

    boolean readsDocuments() {
      return onDocument != null;
    }

    boolean isBetterThan(IndexPlan other) {
      if (equalKeys != other.equalKeys) return equalKeys > other.equalKeys;
      if (ranged != other.ranged) return ranged;
      return onDocument == null && other.onDocument != null;
    }

    /** Values for equality: those the index orders like a scan's comparison does. */
    private static boolean isEqualityValue(Object value) {
      return value == null
          || value instanceof String
          || value instanceof Integer
          || value instanceof Long
          || value instanceof Double
          || value instanceof Boolean
          || value instanceof ObjectId
          || value instanceof Instant;
    }

    private static Object equalityValue(Object condition) {
      if (condition instanceof Document) {
        Document operators = (Document) condition;
        if (operators.size() == 1 && operators.containsKey("$eq")) condition = operators.get("$eq");
        else return Missing.getInstance();
      }
      return isEqualityValue(condition) ? condition : Missing.getInstance();
    }

    /** The query as a list of conditions that all must hold (its top level, and `$and`s, flattened). */
    private static void conjuncts(Document query, List<Document> out) {
      for (Map.Entry<String, Object> condition : query.entrySet()) {
        if (condition.getKey().equals("$and") && condition.getValue() instanceof List) {
          boolean allDocuments = ((List<?>) condition.getValue()).stream().allMatch(part -> part instanceof Document);
          if (allDocuments) {
            for (Object part : (List<?>) condition.getValue()) conjuncts((Document) part, out);
            continue;
          }
        }
        out.add(new Document(condition.getKey(), condition.getValue()));
      }
    }

    private static Document allOf(List<Document> conditions) {
      if (conditions.isEmpty()) return null;
      if (conditions.size() == 1) return conditions.get(0);
      return new Document("$and", conditions);
    }

    static IndexPlan of(SecondaryIndex index, Document query, Document orderBy) {
      String[] keys = index.keyNames();
      List<IndexKey> indexKeys = index.getKeys();
      List<Document> conditions = new ArrayList<>();
      conjuncts(query, conditions);

      // Equality on leading keys, and the condition each comes from.
      Object[] equal = new Object[keys.length];
      Document[] equalFrom = new Document[keys.length];
      int equalKeys = 0;
      while (equalKeys < keys.length) {
        Object value = Missing.getInstance();
        for (Document condition : conditions) {
          if (condition.containsKey(keys[equalKeys])) {
            value = equalityValue(condition.get(keys[equalKeys]));
            if (!(value instanceof Missing)) {
              equalFrom[equalKeys] = condition;
              break;
            }
          }
        }
        if (value instanceof Missing) break;
        equal[equalKeys] = value;
        equalKeys += 1;
      }

      // The sort, without the keys held equal, must be the next keys: all in the index's directions or all reversed.
      boolean reverse = false;
      if (orderBy != null) {
        Set<String> equalNames = new LinkedHashSet<>(List.of(keys).subList(0, equalKeys));
        int position = equalKeys;
        Boolean forward = null;
        for (Map.Entry<String, Object> sortKey : orderBy.entrySet()) {
          if (equalNames.contains(sortKey.getKey())) continue;
          if (position >= keys.length || !keys[position].equals(sortKey.getKey())) return null;
          boolean ascending = ((Number) sortKey.getValue()).intValue() > 0;
          boolean same = ascending == indexKeys.get(position).isAscending();
          if (forward == null) forward = same;
          else if (forward != same) return null;
          position += 1;
        }
        reverse = forward != null && !forward;
      }

      // A range on the next key: the walk's order is kept (the sort, if any, starts at that key or is all equal).
      Object low = null;
      boolean lowInclusive = false;
      Object high = null;
      boolean highInclusive = false;
      boolean skipNull = false;
      boolean ranged = false;
      if (equalKeys < keys.length) {
        for (Document condition : conditions) {
          Object operators = condition.get(keys[equalKeys]);
          if (!(operators instanceof Document) || !condition.containsKey(keys[equalKeys])) continue;
          for (Map.Entry<String, Object> operator : ((Document) operators).entrySet()) {
            Object value = operator.getValue();
            switch (operator.getKey()) {
              case "$gt":
              case "$gte":
                if (value != null && isEqualityValue(value) && low == null) {
                  low = value;
                  lowInclusive = operator.getKey().equals("$gte");
                  ranged = true;
                }
                break;
              case "$lt":
              case "$lte":
                if (value != null && isEqualityValue(value) && high == null) {
                  high = value;
                  highInclusive = operator.getKey().equals("$lte");
                  ranged = true;
                }
                break;
              case "$ne":
                if (value == null) {
                  skipNull = true;
                  ranged = true;
                }
                break;
              default:
                break;
            }
          }
        }
      }

      List<Entry[]> stretches = stretches(index, equal, equalKeys, low, lowInclusive, high, highInclusive, skipNull);

      // Conditions the entries decide (top-level fields that are keys), and the rest.
      Set<String> keyFields = new LinkedHashSet<>();
      for (String key : keys) {
        if (!key.contains(".")) keyFields.add(key);
      }
      List<Document> onKeys = new ArrayList<>();
      List<Document> onDocument = new ArrayList<>();
      for (Document condition : conditions) {
        String field = condition.keySet().iterator().next();
        if (keyFields.contains(field) && isDecidedByStretch(condition, equalFrom, equal, equalKeys)) continue;
        (keyFields.contains(field) ? onKeys : onDocument).add(condition);
      }
      return new IndexPlan(
          index, equalKeys, ranged, reverse, stretches, allOf(onKeys), allOf(onDocument), keyFields);
    }

    /**
     * Whether the walk's stretch alone decides a condition: it is the equality a leading key's stretch was bounded
     * by, on a value that compares equal only where a match does (not null, which matches a missing field too, nor
     * NaN). The entries then need no check on it: a count over a user's favourites walks them and checks nothing.
     */
    private static boolean isDecidedByStretch(Document condition, Document[] equalFrom, Object[] equal, int equalKeys) {
      for (int i = 0; i < equalKeys; i++) {
        if (equalFrom[i] != condition) continue;
        Object value = equal[i];
        return value != null && !(value instanceof Double && ((Double) value).isNaN());
      }
      return false;
    }

    /** The stretches of the index (from, to; in its order) that can hold matches. */
    private static List<Entry[]> stretches(
        SecondaryIndex index,
        Object[] equal,
        int equalKeys,
        Object low,
        boolean lowInclusive,
        Object high,
        boolean highInclusive,
        boolean skipNull) {
      int keys = index.keyNames().length;
      Entry from = bound(equal, equalKeys, keys, null, false, Entry.LOW);
      Entry to = bound(equal, equalKeys, keys, null, false, Entry.HIGH);
      if (equalKeys < keys) {
        boolean ascending = index.getKeys().get(equalKeys).isAscending();
        // In the index's order, the smallest values come first on an ascending key, last on a descending one.
        Object first = ascending ? low : high;
        boolean firstInclusive = ascending ? lowInclusive : highInclusive;
        Object last = ascending ? high : low;
        boolean lastInclusive = ascending ? highInclusive : lowInclusive;
        if (first != null) from = bound(equal, equalKeys, keys, first, true, firstInclusive ? Entry.LOW : Entry.HIGH);
        if (last != null) to = bound(equal, equalKeys, keys, last, true, lastInclusive ? Entry.HIGH : Entry.LOW);
        if (skipNull) {
          Entry nullsFrom = bound(equal, equalKeys, keys, null, true, Entry.LOW);
          Entry nullsTo = bound(equal, equalKeys, keys, null, true, Entry.HIGH);
          List<Entry[]> stretches = new ArrayList<>();
          addStretch(index, stretches, from, nullsFrom);
          addStretch(index, stretches, nullsTo, to);
          return stretches;
        }
      }
      List<Entry[]> stretches = new ArrayList<>();
      addStretch(index, stretches, from, to);
      return stretches;
    }

    private static void addStretch(SecondaryIndex index, List<Entry[]> stretches, Entry from, Entry to) {
      if (index.entries().comparator().compare(from, to) < 0) stretches.add(new Entry[] {from, to});
    }

    /** An entry before or after (`rest`) every entry with these leading values (and `next` on the next key). */
    private static Entry bound(Object[] equal, int equalKeys, int keys, Object next, boolean withNext, Object rest) {
      Object[] values = new Object[keys];
      for (int i = 0; i < keys; i++) {
        if (i < equalKeys) values[i] = equal[i];
        else if (i == equalKeys && withNext) values[i] = next;
        else values[i] = rest;
      }
      return new Entry(values, rest);
    }

    /**
     * The stretches' entries in the walk's order, one at a time: a page of 10 reads 10 entries, whatever the
     * stretch holds. (A stream's flatMap behind an iterator would copy each stretch whole at its first entry: a
     * person's latest 10 of 10,000 entries cost the 10,000.) The caller holds the index's lock while it walks.
     */
    private Iterator<Entry> walkOrder() {
      List<Entry[]> inOrder = new ArrayList<>(stretches);
      if (reverse) java.util.Collections.reverse(inOrder);
      Iterator<Entry[]> remaining = inOrder.iterator();
      return new Iterator<Entry>() {
        private Iterator<Entry> current = java.util.Collections.emptyIterator();

        @Override
        public boolean hasNext() {
          while (!current.hasNext() && remaining.hasNext()) {
            Entry[] stretch = remaining.next();
            NavigableSet<Entry> part = index.entries().subSet(stretch[0], false, stretch[1], false);
            current = reverse ? part.descendingIterator() : part.iterator();
          }
          return current.hasNext();
        }

        @Override
        public Entry next() {
          if (!hasNext()) throw new NoSuchElementException();
          return current.next();
        }
      };
    }

    /** The entry's key fields as a document (a missing value stays missing). */
    private Document keyDocument(Entry entry) {
      Document document = new Document();
      String[] keys = index.keyNames();
      for (int i = 0; i < keys.length; i++) {
        if (keyFields.contains(keys[i]) && !(entry.values[i] instanceof Missing)) {
          document.put(keys[i], entry.values[i]);
        }
      }
      return document;
    }

    /**
     * The page: matches in index order after `skip`, at most `limit` (0: all), decoded as far as `output`
     * asks. Null when an unnarrowed walk gives up (the caller scans instead).
     */
    List<Document> walk(Collection collection, int skip, int limit, Fields output) {
      // The index's entries stay as they are while walked (writers change them under the same lock).
      synchronized (index) {
        return walkLocked(collection, skip, limit, output);
      }
    }

    private List<Document> walkLocked(Collection collection, int skip, int limit, Fields output) {
      DefaultQueryMatcher matcher = new DefaultQueryMatcher();
      long budget = Long.MAX_VALUE;
      if (!narrowed() && onDocument != null) {
        if (limit <= 0) return null;
        budget = 2L * (Math.max(skip, 0) + limit) + 100;
      }
      List<Document> page = new ArrayList<>();
      int toSkip = Math.max(skip, 0);
      Iterator<Entry> entries = walkOrder();
      while (entries.hasNext()) {
        Entry entry = entries.next();
        if (onKeys != null && !matcher.matches(keyDocument(entry), onKeys)) continue;
        Object raw = null;
        if (onDocument != null) {
          if (budget-- <= 0) return null;
          raw = collection.rawAt(entry.position);
          if (raw == null || !matcher.matches(Stored.decode(raw, documentFields), onDocument)) continue;
        }
        if (toSkip > 0) {
          toSkip -= 1;
          continue;
        }
        if (raw == null) raw = collection.rawAt(entry.position);
        if (raw != null) page.add(Stored.decode(raw, output));
        if (limit > 0 && page.size() >= limit) break;
      }
      return page;
    }

    /** The number of matches, or -1 when this plan would read every document (a scan does that better). */
    int count(Collection collection) {
      if (!narrowed() && onDocument != null) return -1;
      synchronized (index) {
        return countLocked(collection);
      }
    }

    private int countLocked(Collection collection) {
      DefaultQueryMatcher matcher = new DefaultQueryMatcher();
      int counted = 0;
      Iterator<Entry> entries = walkOrder();
      while (entries.hasNext()) {
        Entry entry = entries.next();
        if (onKeys != null && !matcher.matches(keyDocument(entry), onKeys)) continue;
        if (onDocument != null) {
          Object raw = collection.rawAt(entry.position);
          if (raw == null || !matcher.matches(Stored.decode(raw, documentFields), onDocument)) continue;
        }
        counted += 1;
      }
      return counted;
    }
  }
}
