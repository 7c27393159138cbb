import json, sys, re
d = json.load(open(sys.argv[1]))
M = d["models"]
def mdesc(name, depth=0, seen=()):
    m = M.get(name)
    pad = "    " * depth
    out = []
    if m is None: return [pad + f"{name}"]
    if name in seen: return [pad + f"{name} (recursive)"]
    if m["kind"] != "object":
        out.append(pad + f"{name}: {m['kind']}({', '.join(m['schemas_in_try_order'])})  [{m['file']}]")
        for s in m["refs"]:
            out += mdesc(s, depth + 1, seen + (name,))
        return out
    out.append(pad + f"{name}  [{m['file']}]")
    for f in m["members"]:
        flags = "MUST: present, non-null" if (f["required"] and not f["nullable"]) else "may be null/absent"
        extra = ""
        if "enum" in f: extra += f" enum={f['enum']}"
        if "pattern" in f: extra += f" pattern={f['pattern']}"
        out.append(pad + f"  - {f['name']}: {f['type']} ({flags}){extra}")
    for s in m["refs"]:
        out += mdesc(s, depth + 1, seen + (name,))
    return out
for p in d["paths"]:
    print(f"## {p['http']} {p['path']}  — client method {p['client_method']}")
    print("   params: " + ", ".join(f"{x['name']}{'*' if x['required'] else ''}:{x['type']}" + ("" if x['in']=='query' else f"[{x['in']}]") for x in p["params"]))
    print(f"   response: {p['response_types']}   doc max limit: {p['doc_max_limit']}")
    doc = re.sub(r"<li>", " • ", p["description"]); doc = re.sub(r"<strong>", " [", doc); doc = re.sub(r"</strong>", "] ", doc)
    doc = re.sub(r"<button[^>]*>.*?</button>", "", doc); doc = re.sub(r"<[^>]+>", " ", doc); doc = re.sub(r"\s+", " ", doc).strip()
    print("   doc: " + doc)
    t = p["response_types"].get("200", "")
    inner = re.sub(r"^(List\[)+", "", t).rstrip("]")
    for l in mdesc(inner, 1): print(l)
    print()
