#!/usr/bin/env python3
"""k8s_check.py: checks that the Kubernetes example (deploy/k8s) holds together, offline.

kubectl cannot validate without an API server (even --dry-run=client asks the server what
the kinds are), so this checks what would break the cluster, on the manifests as written
(a kustomization.yaml's resources and secretGenerator) or as rendered by `kubectl kustomize`:
every object is named and typed; each Deployment's selector matches its pods; the Service
selects the coordinator's pods on a port the coordinator listens on, and the workers connect
to that Service; every volume, claim and Secret that is used exists, with the key files the
pods read; every file given on a command line lies in a mounted folder; CURVE is on; the
coordinator is a single replica that is recreated, never rolled (its journal is locked); the
oracle (`octad serve`) is a scalable Deployment whose Service selects it on the port it
listens on, ready on /health there, reading its tables from a volume mounted read-only.

usage: k8s_check.py DIR_WITH_KUSTOMIZATION | RENDERED.yaml
"""
import os
import sys

import yaml

PASSED = FAILED = 0


def check(ok, what):
    global PASSED, FAILED
    print(("ok: " if ok else "FAIL: ") + what)
    PASSED += bool(ok)
    FAILED += not ok


def load(path):
    """The objects, and the Secrets' key names (from Secret objects or a secretGenerator)."""
    secrets = {}
    if os.path.isdir(path):
        with open(os.path.join(path, "kustomization.yaml")) as f:
            kust = yaml.safe_load(f)
        docs = []
        for res in kust.get("resources", []):
            with open(os.path.join(path, res)) as f:
                docs += [d for d in yaml.safe_load_all(f) if d]
        for gen in kust.get("secretGenerator", []):
            secrets[gen["name"]] = {os.path.basename(p.split("=")[-1]) for p in gen.get("files", [])}
    else:
        with open(path) as f:
            docs = [d for d in yaml.safe_load_all(f) if d]
    for d in docs:
        if d.get("kind") == "Secret":
            secrets[d["metadata"]["name"]] = set((d.get("data") or {}).keys()) | set((d.get("stringData") or {}).keys())
    return docs, secrets


def pod_checks(dep, claims, secrets):
    name = dep["metadata"]["name"]
    spec = dep["spec"]["template"]["spec"]
    labels = dep["spec"]["template"]["metadata"].get("labels", {})
    sel = dep["spec"]["selector"]["matchLabels"]
    check(sel and all(labels.get(k) == v for k, v in sel.items()), f"{name}: the selector matches its pods")
    check(spec.get("securityContext", {}).get("runAsUser") == 10001, f"{name}: runs as the image's user 10001")
    volumes = {v["name"]: v for v in spec.get("volumes", [])}
    for c in spec.get("initContainers", []) + spec["containers"]:
        mounts = {m["name"]: m["mountPath"] for m in c.get("volumeMounts", [])}
        check(set(mounts) <= set(volumes), f"{name}/{c['name']}: every mounted volume exists")
        words = (c.get("command") or []) + (c.get("args") or [])
        paths = [p for w in words for p in str(w).split() if p.startswith("/")]
        inside = all(any(p == m or p.startswith(m.rstrip("/") + "/") for m in mounts.values()) for p in paths)
        check(inside, f"{name}/{c['name']}: every file it names is in a mounted folder ({len(paths)} files)")
        for vname, mpath in mounts.items():
            vol = volumes.get(vname, {})
            if "secret" in vol:
                sname = vol["secret"]["secretName"]
                used = {os.path.basename(p) for p in paths if p.startswith(mpath.rstrip("/") + "/")}
                check(sname in secrets and used <= secrets[sname],
                      f"{name}/{c['name']}: Secret {sname} exists with the keys it reads {sorted(used)}")
            if "persistentVolumeClaim" in vol:
                claim = vol["persistentVolumeClaim"]["claimName"]
                check(claim in claims, f"{name}: the claim {claim} exists")
    return spec["containers"][0]


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    docs, secrets = load(sys.argv[1])
    check(all(d.get("apiVersion") and d.get("kind") and d.get("metadata", {}).get("name") for d in docs),
          f"all {len(docs)} objects have apiVersion, kind and a name")
    by = {(d["kind"], d["metadata"]["name"]): d for d in docs}
    claims = {n for k, n in by if k == "PersistentVolumeClaim"}
    coord, work, svc = (by.get(("Deployment", "octad-coordinator")), by.get(("Deployment", "octad-worker")),
                        by.get(("Service", "octad-coordinator")))
    check(coord and work and svc, "a coordinator Deployment and Service, a worker Deployment")
    if not (coord and work and svc):
        print(f"{PASSED} passed, {FAILED} failed")
        return 1
    check(coord["spec"].get("replicas") == 1 and coord["spec"].get("strategy", {}).get("type") == "Recreate",
          "one coordinator, recreated (never two on one journal)")
    check(work["spec"].get("replicas", 1) >= 1, f"workers scale ({work['spec'].get('replicas')} replicas)")
    cc = pod_checks(coord, claims, secrets)
    wc = pod_checks(work, claims, secrets)
    pod_labels = coord["spec"]["template"]["metadata"]["labels"]
    check(all(pod_labels.get(k) == v for k, v in svc["spec"]["selector"].items()),
          "the Service selects the coordinator's pods")
    port = svc["spec"]["ports"][0]
    cports = {p.get("name"): p["containerPort"] for p in cc.get("ports", [])}
    target = port.get("targetPort", port["port"])
    check(target in cports or target in cports.values(), f"the Service's target port {target} is the coordinator's")
    cargs, wargs = [str(a) for a in cc["args"]], [str(a) for a in wc["args"]]
    bind_port = cargs[cargs.index("--bind") + 1].rsplit(":", 1)[1] if "--bind" in cargs else None
    check(bind_port == str(cports.get(target, target)), f"the coordinator binds the port it declares ({bind_port})")
    want = f"tcp://{svc['metadata']['name']}:{port['port']}"
    check("--connect" in wargs and wargs[wargs.index("--connect") + 1] == want, f"workers connect to {want}")
    check({"--curve-secret", "--allow"} <= set(cargs) and {"--server-key", "--secret"} <= set(wargs),
          "CURVE: the coordinator has its key and an allow-list, workers the server key and their own")
    oracle_checks(by, claims, secrets)
    print(f"{PASSED} passed, {FAILED} failed")
    return 1 if FAILED else 0


def oracle_checks(by, claims, secrets):
    dep, svc = by.get(("Deployment", "octad-oracle")), by.get(("Service", "octad-oracle"))
    check(dep and svc, "an oracle Deployment and Service")
    if not (dep and svc):
        return
    oc = pod_checks(dep, claims, secrets)
    args = [str(a) for a in oc["args"]]
    check(args[:2] == ["octad", "serve"], "the oracle runs octad serve")
    listen = args[args.index("--listen") + 1] if "--listen" in args else "127.0.0.1:8080"
    check(listen.startswith("0.0.0.0:"), f"it listens on every interface ({listen}), not only loopback")
    ports = {p.get("name"): p["containerPort"] for p in oc.get("ports", [])}
    target = svc["spec"]["ports"][0].get("targetPort")
    check(str(ports.get(target, target)) == listen.rsplit(":", 1)[1], "its Service's target port is the one it listens on")
    labels = dep["spec"]["template"]["metadata"]["labels"]
    check(all(labels.get(k) == v for k, v in svc["spec"]["selector"].items()), "the Service selects the oracle's pods")
    probe = oc.get("readinessProbe", {}).get("httpGet", {})
    check(probe.get("path") == "/health" and ports.get(probe.get("port"), probe.get("port")) == ports.get(target),
          "ready when /health answers on its port")
    tables = args[args.index("--tables") + 1] if "--tables" in args else None
    mounts = {m["mountPath"]: m for m in oc.get("volumeMounts", [])}
    check(tables in mounts and mounts[tables].get("readOnly") is True, f"its tables ({tables}) are mounted read-only")


if __name__ == "__main__":
    sys.exit(main())
