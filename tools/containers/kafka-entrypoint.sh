#!/bin/bash
# Writes server.properties from the environment (KAFKA_NODE_ID=1 → node.id=1, as the apache/kafka
# image does), formats the log directory once, then runs the broker as the container's process.
set -euo pipefail
config=/opt/kafka/config/server.properties
: > "$config"
while IFS='=' read -r name value; do
  case "$name" in
    KAFKA_HEAP_OPTS | KAFKA_JVM_OPTS) continue ;;
    KAFKA_*)
      # As the apache/kafka image: ___ → - and __ → _ (listener.name.apps.scram-sha-512.sasl.jaas.config).
      key=$(echo "${name#KAFKA_}" | tr '[:upper:]' '[:lower:]' | tr '_' '.' | sed -e 's/\.\.\./-/g' -e 's/\.\./_/g')
      echo "$key=$value" >> "$config"
      ;;
  esac
done < <(env)
grep -q '^log.dirs=' "$config" || echo 'log.dirs=/var/lib/kafka/data' >> "$config"
cat > /opt/kafka/config/log4j.properties <<'LOG'
log4j.rootLogger=WARN, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.server.KafkaRaftServer=INFO
LOG
java_opts=(${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m} -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true
  -Dlog4j.configuration=file:/opt/kafka/config/log4j.properties -cp '/opt/kafka/libs/*')
java "${java_opts[@]}" kafka.tools.StorageTool format --ignore-formatted \
  --cluster-id "${CLUSTER_ID:-hYgY6t0d5IakuutssTO6Iw}" --config "$config" > /dev/null
exec java "${java_opts[@]}" kafka.Kafka "$config"
