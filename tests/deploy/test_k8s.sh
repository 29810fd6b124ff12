#!/usr/bin/env bash
# test_k8s.sh: the Kubernetes example (deploy/k8s) validated offline, with no cluster:
# yamllint on the manifests, tests/deploy/k8s_check.py on them as written, then (where kubectl is
# installed) `kubectl kustomize` renders them with keys made by `coordinator keygen`, and
# k8s_check.py checks the rendered objects, Secrets included. kubectl's own validation
# (`apply --dry-run=client --validate=false`) is tried and reported, but it asks an API
# server what the kinds are even then, so without one it cannot run here.
# Skips (77) without yamllint or a Python with PyYAML.
set -u
k8s=${1:?usage: test_k8s.sh deploy/k8s COORDINATOR}
coordinator=${2:?usage: test_k8s.sh deploy/k8s COORDINATOR}
here=$(cd "$(dirname "$0")" && pwd)
command -v yamllint >/dev/null || { echo "test_k8s: SKIP: yamllint not installed"; exit 77; }
py=""
for p in python3 /usr/bin/python3; do "$p" -c 'import yaml' 2>/dev/null && { py=$p; break; }; done
[ -n "$py" ] || { echo "test_k8s: SKIP: no python3 with PyYAML"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 fails=0
verdict() { if [ "$2" = 0 ]; then echo "ok: $1"; passed=$((passed + 1)); else echo "FAIL: $1"; fails=$((fails + 1)); fi; }

yamllint -s -c "$k8s/.yamllint" "$k8s"; verdict "yamllint finds nothing in $k8s" $?
"$py" "$here/k8s_check.py" "$k8s" >"$tmp/raw.log"; verdict "k8s_check.py on the manifests as written ($(tail -n 1 "$tmp/raw.log"))" $?
grep FAIL "$tmp/raw.log"
if command -v kubectl >/dev/null; then
    cp -r "$k8s" "$tmp/k8s" && mkdir -p "$tmp/k8s/keys"
    "$coordinator" keygen "$tmp/k8s/keys/coordinator" >/dev/null && "$coordinator" keygen "$tmp/k8s/keys/worker" >/dev/null
    kubectl kustomize "$tmp/k8s" >"$tmp/rendered.yaml" 2>"$tmp/kustomize.err"; verdict "kubectl kustomize renders it" $?
    "$py" "$here/k8s_check.py" "$tmp/rendered.yaml" >"$tmp/rendered.log"
    verdict "k8s_check.py on the rendered objects ($(tail -n 1 "$tmp/rendered.log"))" $?
    grep FAIL "$tmp/rendered.log"
    n=$(grep -c '^kind: Secret' "$tmp/rendered.yaml"); [ "$n" = 2 ]; verdict "the keys become 2 Secrets ($n)" $?
    if KUBECONFIG=/dev/null kubectl --server=http://127.0.0.1:1 apply --dry-run=client --validate=false -f "$tmp/rendered.yaml" \
        >"$tmp/dry.log" 2>&1; then
        verdict "kubectl apply --dry-run=client accepts it" 0
    else
        echo "note: kubectl apply --dry-run=client needs an API server: $(grep -m1 -o 'unable to recognize[^:]*' "$tmp/dry.log")"
    fi
else
    echo "note: no kubectl: kustomize rendering not checked"
fi
echo "$passed passed, $fails failed"
[ "$fails" = 0 ]
