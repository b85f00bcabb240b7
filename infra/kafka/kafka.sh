#!/usr/bin/env bash
# The local single-node KRaft broker (combined broker + controller) for hosts without Docker.
#   infra/kafka/kafka.sh start|stop|status
# Env: KAFKA_PORT (9092), KAFKA_CONTROLLER_PORT (9093), KAFKA_DATA_DIR (.run/kafka under the repo),
#      KAFKA_HEAP (256m).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
port="${KAFKA_PORT:-9092}"
cport="${KAFKA_CONTROLLER_PORT:-9093}"
data="${KAFKA_DATA_DIR:-$root/.run/kafka}"
heap="${KAFKA_HEAP:-256m}"
libs="$here/libs"
pidfile="$data/kafka.pid"

die() { printf 'kafka: %s\n' "$*" >&2; exit 1; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

need_tools() {
  command -v java >/dev/null || die "java is not installed. Install a JDK 17 (Debian: apt-get install -y openjdk-17-jre-headless) and run again."
  local v; v="$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)"
  [ "${v:-0}" -ge 11 ] || die "java $v is too old: Kafka 3.9 needs Java 11 or newer (17 recommended)."
}

fetch_libs() {
  if [ -f "$libs/.complete" ]; then return; fi
  command -v mvn >/dev/null || die "maven (mvn) is not installed: it fetches the broker from Maven Central. Debian: apt-get install -y maven."
  echo "kafka: fetching the broker's jars from Maven Central into infra/kafka/libs ..."
  mvn -q -B -f "$here/pom.xml" dependency:copy-dependencies -DoutputDirectory="$libs" -DincludeScope=runtime \
    || die "maven could not fetch the broker (see the output above). Check that Maven Central is reachable."
  touch "$libs/.complete"
}

running() { [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; }

write_props() {
  cat > "$data/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$cport
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$cport
advertised.listeners=PLAINTEXT://127.0.0.1:$port
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
log.dirs=$data/logs
num.partitions=6
auto.create.topics.enable=false
offsets.topic.replication.factor=1
offsets.topic.num.partitions=6
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
default.replication.factor=1
min.insync.replicas=1
group.initial.rebalance.delay.ms=0
log.cleaner.dedupe.buffer.size=2097152
log.retention.hours=168
log.segment.bytes=67108864
num.network.threads=2
num.io.threads=4
PROPS
  cat > "$data/log4j.properties" <<PROPS
log4j.rootLogger=INFO, file
log4j.appender.file=org.apache.log4j.RollingFileAppender
log4j.appender.file.File=$data/server.log
log4j.appender.file.MaxFileSize=20MB
log4j.appender.file.MaxBackupIndex=2
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka=INFO
log4j.logger.org.apache.kafka=INFO
PROPS
}

start() {
  need_tools
  if running; then echo "kafka: already running (pid $(cat "$pidfile")) on 127.0.0.1:$port"; return; fi
  fetch_libs
  if port_open "$port"; then
    # Another checkout's broker (or any Kafka) on the port is used as it is; anything else is an error.
    if timeout 20 java -cp "$libs/*" kafka.admin.BrokerApiVersionsCommand --bootstrap-server "127.0.0.1:$port" >/dev/null 2>&1; then
      echo "kafka: using the broker already on 127.0.0.1:$port (not started here, so not stopped here)"; return
    fi
    die "port $port is busy and does not answer as a Kafka broker: stop what holds it (ss -ltnp 'sport = :$port') or set KAFKA_PORT."
  fi
  if port_open "$cport"; then die "controller port $cport is busy: stop what holds it or set KAFKA_CONTROLLER_PORT."; fi
  mkdir -p "$data/logs"
  write_props
  local cp="$libs/*"
  local jopts=(-Xms"$heap" -Xmx"$heap" -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -Djava.awt.headless=true
    -Dlog4j.configuration="file:$data/log4j.properties" -Dkafka.logs.dir="$data")
  if [ ! -f "$data/logs/meta.properties" ]; then
    local id; id="$(java -cp "$cp" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -1)"
    java "${jopts[@]}" -cp "$cp" kafka.tools.StorageTool format -t "$id" -c "$data/server.properties" --ignore-formatted >"$data/format.log" 2>&1 \
      || die "formatting storage failed: see $data/format.log"
  fi
  setsid nohup java "${jopts[@]}" -cp "$cp" kafka.Kafka "$data/server.properties" >"$data/stdout.log" 2>&1 </dev/null &
  echo $! > "$pidfile"
  local i
  for i in $(seq 1 120); do
    if port_open "$port"; then echo "kafka: ready on 127.0.0.1:$port (pid $(cat "$pidfile"))"; echo "started kafka"; return; fi
    running || die "the broker exited during start-up; see $data/server.log and $data/stdout.log"
    sleep 0.5
  done
  die "the broker did not accept connections within 60s; see $data/server.log"
}

stop() {
  if ! running; then rm -f "$pidfile"; echo "kafka: not running"; return; fi
  local pid; pid="$(cat "$pidfile")"
  kill "$pid"
  local i
  for i in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
  rm -f "$pidfile"
  echo "kafka: stopped (pid $pid)"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) if running; then echo "running (pid $(cat "$pidfile"))"; else echo "stopped"; exit 1; fi ;;
  fetch) need_tools; fetch_libs ;;
  *) echo "usage: $0 start|stop|status|fetch" >&2; exit 2 ;;
esac
