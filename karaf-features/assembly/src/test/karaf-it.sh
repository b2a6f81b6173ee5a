#!/usr/bin/env bash
# Integration test of the RDMA Karaf distribution: boots a copy of the unpacked assembly on
# Java 17, waits for the ssh console to run the rdma commands, drives it with the OpenSSH client
# (non-interactive, loopback only), checks the outputs, and stops Karaf, waiting for its JVM to
# exit. Run by Maven in the integration-test phase of karaf-features/assembly:
#
#   bash karaf-it.sh ASSEMBLY_DIR WORK_DIR
#
# ASSEMBLY_DIR is target/assembly (never written to); WORK_DIR (target/karaf-it) receives a
# fresh copy with its own ssh port, the Karaf log and the test transcript (karaf-it.log).
# Every failure exits non-zero after killing Karaf. The whole run is bounded by
# KARAF_IT_TIMEOUT seconds (default 600); booting to a working shell by KARAF_IT_BOOT_TIMEOUT
# (default 180). KARAF_IT_SSH_PORT forces the ssh port (default: the first free one from 8101).
set -euo pipefail

# ---------------------------------------------------------------- outer bound
# Re-run under timeout(1): on expiry it sends SIGTERM, the trap below then kills Karaf.
if [ -z "${KARAF_IT_BOUNDED:-}" ]; then
    export KARAF_IT_BOUNDED=1
    exec timeout --kill-after=30 "${KARAF_IT_TIMEOUT:-600}" bash "$0" "$@"
fi

[ $# -eq 2 ] || { echo "usage: karaf-it.sh ASSEMBLY_DIR WORK_DIR" >&2; exit 2; }
ASSEMBLY=$(cd "$1" && pwd)
WORK=$2
BOOT_TIMEOUT=${KARAF_IT_BOOT_TIMEOUT:-180}
CYCLES=20
# Threads may differ by a few between two samples (Karaf's resolver and Event Admin pools); a
# leak of one thread per install/uninstall cycle shows as +CYCLES.
THREAD_SLACK=4

KARAF_PGID=
KARAF_HOME=
TRANSCRIPT=

log() { echo "[karaf-it] $*" | tee -a "$TRANSCRIPT" >&2; }

now_ms() { date +%s%3N; }

die() {
    log "FAILED: $*"
    exit 1
}

# ---------------------------------------------------------------- clean-up (any exit)
karaf_alive() { [ -n "$KARAF_PGID" ] && kill -0 -- "-$KARAF_PGID" 2>/dev/null; }

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    if karaf_alive; then
        log "killing Karaf (process group $KARAF_PGID)"
        kill -TERM -- "-$KARAF_PGID" 2>/dev/null || true
        for _ in $(seq 1 50); do karaf_alive || break; sleep 0.2; done
        kill -KILL -- "-$KARAF_PGID" 2>/dev/null || true
    fi
    if [ "$status" -ne 0 ] && [ -n "$KARAF_HOME" ]; then
        echo "---- last lines of $KARAF_HOME/data/log/karaf.log" >&2
        tail -n 40 "$KARAF_HOME/data/log/karaf.log" >&2 2>/dev/null || true
        echo "---- console output ($WORK/karaf.out)" >&2
        tail -n 20 "$WORK/karaf.out" >&2 2>/dev/null || true
        echo "[karaf-it] FAILED (status $status); transcript: $TRANSCRIPT" >&2
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'log "interrupted (outer timeout or signal)"; exit 124' INT TERM

# ---------------------------------------------------------------- Java 17
java_major() {
    "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p'
}

find_java17() {
    local candidates=()
    [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
    if command -v java >/dev/null 2>&1; then
        candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")")
    fi
    candidates+=(/usr/lib/jvm/java-17-openjdk-* /usr/lib/jvm/*17*)
    local home
    for home in "${candidates[@]}"; do
        if [ -x "$home/bin/java" ] && [ "$(java_major "$home/bin/java")" = 17 ]; then
            echo "$home"
            return 0
        fi
    done
    return 1
}

# ---------------------------------------------------------------- ssh client
free_port() {
    local p
    for p in $(seq 8101 8199); do
        if ! (: </dev/tcp/127.0.0.1/"$p") 2>/dev/null; then
            echo "$p"
            return 0
        fi
    done
    return 1
}

# kssh CMD: runs CMD in the Karaf console; prints its output (stdout and stderr, without
# colours and without the ssh client's notice that Karaf closed the connection, which it does
# after every command) and returns its status (255: no ssh connection).
kssh() {
    SSH_ASKPASS="$WORK/askpass" SSH_ASKPASS_REQUIRE=force DISPLAY=:0 \
        timeout 60 ssh -n -F /dev/null -p "$SSH_PORT" \
        -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o GlobalKnownHostsFile=/dev/null \
        -o LogLevel=ERROR -o ConnectTimeout=5 -o BatchMode=no \
        -o PubkeyAuthentication=no -o PreferredAuthentications=password,keyboard-interactive \
        -o NumberOfPasswordPrompts=1 \
        karaf@127.0.0.1 "$1" 2>&1 \
        | sed -e 's/\x1b\[[0-9;]*m//g' -e 's/\r$//' -e '/^Connection to .* closed by remote host\.$/d'
}

# run CMD: runs CMD, which must succeed; its output is in $OUT and the transcript.
OUT=
run() {
    local status=0
    OUT=$(kssh "$1") || status=$?
    { echo "karaf@rdma> $1"; echo "$OUT"; echo "(exit $status)"; } >>"$TRANSCRIPT"
    [ "$status" -eq 0 ] || die "'$1' exited with $status: $OUT"
    if grep -qE 'Command not found|Error executing command' <<<"$OUT"; then
        die "'$1' failed: $OUT"
    fi
}

# expect TEXT: $OUT of the last command contains TEXT (a fixed string).
expect() {
    grep -qF -- "$1" <<<"$OUT" || die "output lacks '$1'; it was:
$OUT"
}

# bundle_count / thread_count: print the number, or nothing if the output has none.
bundle_count() {
    run "bundle:list -t 0 --no-format"
    grep -cE '^ *[0-9]+[[:space:]]' <<<"$OUT" || true
}

# Live threads from shell:threads, without the ssh sessions' own: every Karaf shell session
# has a cached executor (session-N-thread-M) whose idle threads linger for 60 s after the
# session ends, so counting them would measure how many ssh commands ran in the last minute.
thread_count() {
    run "shell:threads --list"
    awk -F'|' '$1 ~ /^ *[0-9]+ *$/ { gsub(/^ +| +$/, "", $2); print $2 }' <<<"$OUT" \
        | grep -cvE '^session-[0-9]+-thread-[0-9]+$' || true
}

# ---------------------------------------------------------------- prepare
rm -rf "$WORK"
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
TRANSCRIPT=$WORK/karaf-it.log
: >"$TRANSCRIPT"

command -v ssh >/dev/null 2>&1 || die "the OpenSSH client (ssh) is missing: apt-get install openssh-client"
JAVA17=$(find_java17) || die "no Java 17 found (JAVA_HOME, PATH, /usr/lib/jvm); Karaf 4.4 does not start on newer Java"
SSH_PORT=${KARAF_IT_SSH_PORT:-$(free_port)} || die "no free port in 8101-8199 for the ssh console"
[ -x "$ASSEMBLY/bin/karaf" ] || die "no Karaf distribution in $ASSEMBLY (build karaf-features/assembly first)"

KARAF_HOME=$WORK/karaf
cp -a "$ASSEMBLY" "$KARAF_HOME"
rm -rf "$KARAF_HOME/data/cache" "$KARAF_HOME/data/log" "$KARAF_HOME/data/tmp"/*
sed -i "s/^sshPort *=.*/sshPort = $SSH_PORT/" "$KARAF_HOME/etc/org.apache.karaf.shell.cfg"
grep -q '^sshHost = 127.0.0.1$' "$KARAF_HOME/etc/org.apache.karaf.shell.cfg" || die "ssh is not bound to 127.0.0.1"
# Self-contained: no remote Maven repositories and an empty local one, so every bundle must
# come from the distribution's system/ folder. (Later keys win in a properties file.)
mkdir -p "$WORK/empty-m2"
{
    echo
    echo "# karaf-it: the distribution must be self-contained"
    echo "org.ops4j.pax.url.mvn.repositories="
    echo "org.ops4j.pax.url.mvn.localRepository=$WORK/empty-m2"
} >>"$KARAF_HOME/etc/org.ops4j.pax.url.mvn.cfg"
printf '#!/bin/sh\necho karaf\n' >"$WORK/askpass"
chmod 700 "$WORK/askpass"

log "Java 17: $JAVA17"
log "Karaf: $KARAF_HOME, ssh on 127.0.0.1:$SSH_PORT"

# ---------------------------------------------------------------- boot
t0=$(now_ms)
# Its own session and process group, so that clean-up reaches the script and the JVM.
JAVA_HOME=$JAVA17 setsid "$KARAF_HOME/bin/karaf" server </dev/null >"$WORK/karaf.out" 2>&1 &
KARAF_PGID=$!

log "waiting for the console (at most ${BOOT_TIMEOUT}s)"
deadline=$(( $(date +%s) + BOOT_TIMEOUT ))
tries=0
while :; do
    karaf_alive || die "Karaf exited during boot"
    tries=$((tries + 1))
    if out=$(kssh "rdma:clients") && grep -qF "failed providers and clients:" <<<"$out"; then
        break
    fi
    [ "$(date +%s)" -lt "$deadline" ] || die "no working ssh console with rdma:clients after ${BOOT_TIMEOUT}s ($tries tries); last answer: ${out:-none (no ssh connection)}"
    sleep 0.5
done
boot_ms=$(( $(now_ms) - t0 ))
log "boot to a working shell: ${boot_ms} ms ($tries polls)"

# ---------------------------------------------------------------- the distribution
run "feature:list -i"
grep -qE '^rdma-core[[:space:]│|]' <<<"$OUT" || die "rdma-core is not an installed feature: $OUT"
log "feature:list -i: rdma-core installed"

run "bundle:list -s -t 0 --no-format"
for b in org.rdma.verbs.api org.rdma.core org.rdma.shell org.rdma.karaf; do
    grep -qE "Active.*[[:space:]]$b([[:space:]]|\$)" <<<"$OUT" || die "bundle $b is not Active: $OUT"
done
log "rdma-core bundles active"

# ---------------------------------------------------------------- the rdma commands
run "rdma:dev"
log "rdma:dev: exit 0, $(grep -c . <<<"$OUT" || true) device line(s)"
run "rdma:res"
log "rdma:res: exit 0"
run "rdma:clients"
expect "ID  NAME  SERVICE.ID  DEVICES"
expect "failed providers and clients:"
log "rdma:clients: header and failure section present"

# errors carry the errno name and a non-zero status
status=0
out=$(kssh "rdma:dev no_such_device") || status=$?
{ echo "karaf@rdma> rdma:dev no_such_device"; echo "$out"; echo "(exit $status)"; } >>"$TRANSCRIPT"
grep -qF ENODEV <<<"$out" || die "rdma:dev no_such_device did not report ENODEV: $out"
[ "$status" -ne 0 ] || die "rdma:dev no_such_device exited 0"
log "rdma:dev no_such_device: ENODEV, exit $status"

# ---------------------------------------------------------------- driver load / unload
run "rdma:driver-load fabric"
expect "rdma-fabric"
expect "loaded"
run "service:list org.rdma.fabric.Fabric"
expect "fabric.name = fabric0"
expect "fabric.nodes = 3"
run "config:meta org.rdma.fabric"
expect "Topology file"
run "rdma:driver-unload fabric"
expect "unloaded"
status=0
out=$(kssh "rdma:driver-load no_such_driver") || status=$?
{ echo "karaf@rdma> rdma:driver-load no_such_driver"; echo "$out"; echo "(exit $status)"; } >>"$TRANSCRIPT"
grep -qF ENOENT <<<"$out" || die "rdma:driver-load no_such_driver did not report ENOENT: $out"
[ "$status" -ne 0 ] || die "rdma:driver-load no_such_driver exited 0"
log "rdma:driver-load/-unload fabric: fabric0 (3 nodes) up and gone; unknown driver: ENOENT, exit $status"

# The simulated ConnectX-3s of etc/org.rdma.hca.mlx4sim-node0{1,2}.cfg register with the core
# when their driver is loaded, and are gone, with their resources, when it is unloaded.
run "rdma:driver-load mlx4sim"
expect "rdma-mlx4sim"
run "rdma:dev"
[ "$(grep -cE '^[0-9]+: mlx4_[0-9]+: node_type ca ' <<<"$OUT")" -eq 2 ] || die "rdma:dev does not show two mlx4 devices: $OUT"
expect "node_guid 0002:c903:00a1:b2c0"
run "rdma:res"
[ "$(grep -cE '^[0-9]+: mlx4_[0-9]+: pd ' <<<"$OUT")" -eq 2 ] || die "rdma:res does not show two mlx4 devices: $OUT"
run "rdma:driver-unload mlx4sim"
run "rdma:dev"
[ -z "$OUT" ] || die "devices left after rdma:driver-unload mlx4sim: $OUT"
run "feature:list -i"
grep -qE '^rdma-(mlx4sim|fabric|rvt)[[:space:]]' <<<"$OUT" && die "driver features left installed: $OUT"
log "rdma:driver-load mlx4sim: rdma:dev and rdma:res show mlx4_0 and mlx4_1; rdma:driver-unload mlx4sim: none left"

# ---------------------------------------------------------------- install/uninstall cycles
# One warm-up cycle above (driver-load/unload); then the baseline.
bundles0=$(bundle_count)
threads0=$(thread_count)
[ "${bundles0:-0}" -gt 0 ] || die "bundle:list shows no bundles"
[ "${threads0:-0}" -gt 0 ] || die "shell:threads --list shows no threads"
log "baseline: $bundles0 bundles, $threads0 threads (ssh session pools not counted)"
t1=$(now_ms)
for i in $(seq 1 "$CYCLES"); do
    run "feature:install rdma-fabric"
    run "feature:uninstall rdma-fabric"
done
cycle_ms=$(( ($(now_ms) - t1) / CYCLES ))
bundles1=$(bundle_count)
threads1=$(thread_count)
log "after $CYCLES x feature:install/uninstall rdma-fabric: $bundles1 bundles, $threads1 threads (${cycle_ms} ms per cycle)"
[ "$bundles1" -eq "$bundles0" ] || die "bundle count $bundles1 differs from the baseline $bundles0"
[ "$threads1" -le $((threads0 + THREAD_SLACK)) ] || die "live threads grew from $threads0 to $threads1"
run "feature:list -i"
grep -qE '^rdma-fabric[[:space:]│|]' <<<"$OUT" && die "rdma-fabric still installed after uninstall"

# ---------------------------------------------------------------- stop
log "stopping Karaf (bin/stop)"
t2=$(now_ms)
JAVA_HOME=$JAVA17 "$KARAF_HOME/bin/stop" >>"$TRANSCRIPT" 2>&1 || die "bin/stop failed"
for _ in $(seq 1 300); do karaf_alive || break; sleep 0.2; done
karaf_alive && die "the Karaf JVM is still running 60 s after bin/stop"
KARAF_PGID=
log "Karaf stopped; JVM gone after $(( $(now_ms) - t2 )) ms"
log "OK: boot ${boot_ms} ms, $CYCLES install/uninstall cycles, bundles $bundles0 -> $bundles1, threads $threads0 -> $threads1"
