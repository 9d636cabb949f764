#!/bin/bash
# Compose's Kafka (docker-compose.yml runs it before the image's own entry point, given as the arguments): formats the
# broker's storage once with its SCRAM-SHA-512 users, one per file in /etc/haven/kafka-users (the file's name is the
# user, its content the password: the keys service's), then runs the image's entry point, which leaves the formatted
# storage as it is. KRaft keeps the users in its metadata, so they are made here, before the broker first starts;
# the admin user then gives the services their ACLs (the kafka-acls one-shot).
# Works on apache/kafka (its CLI scripts) and on the local image (tools/containers/kafka.Dockerfile: the jars only).
set -euo pipefail
users=/etc/haven/kafka-users
data=${KAFKA_LOG_DIRS:-/var/lib/kafka/data}
if [ ! -f "$data/meta.properties" ]; then
  config=$(mktemp)
  # server.properties from the environment, named as the images name them: KAFKA_FOO_BAR → foo.bar, ___ → -, __ → _.
  while IFS='=' read -r name value; do
    case "$name" in
      KAFKA_HEAP_OPTS | KAFKA_JVM_OPTS | KAFKA_OPTS | KAFKA_LOG4J_OPTS | KAFKA_JMX_OPTS | KAFKA_VERSION) continue ;;
      KAFKA_*)
        key=$(echo "${name#KAFKA_}" | tr '[:upper:]' '[:lower:]' | tr '_' '.' | sed -e 's/\.\.\./-/g' -e 's/\.\./_/g')
        echo "$key=$value" >> "$config"
        ;;
    esac
  done < <(env)
  scram=()
  for file in "$users"/*; do
    scram+=(--add-scram "SCRAM-SHA-512=[name=$(basename "$file"),password=$(cat "$file")]")
  done
  if [ "${#scram[@]}" -eq 0 ]; then
    echo "no Kafka users in $users: the keys service writes them" >&2
    exit 1
  fi
  if [ -x /opt/kafka/bin/kafka-storage.sh ]; then
    storage=(/opt/kafka/bin/kafka-storage.sh)
  else
    storage=(java -Xmx256m -cp '/opt/kafka/libs/*' kafka.tools.StorageTool)
  fi
  "${storage[@]}" format --cluster-id "${CLUSTER_ID:?CLUSTER_ID names the cluster}" --config "$config" "${scram[@]}" > /dev/null
  rm -f "$config"
  echo "formatted $data with its SCRAM users"
fi
exec "$@"
