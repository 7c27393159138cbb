"""Dump igvf-catalog-client 1.3.0: every API path (method, params, response type) and every model reachable."""
import inspect, json, re, sys, typing
import igvf_catalog_client as ic
from igvf_catalog_client.api.igvf_catalog_api import IgvfCatalogApi
import igvf_catalog_client.models as M
from pydantic import BaseModel

def ann_str(a):
    s = str(a)
    s = s.replace("typing.", "").replace("pydantic.types.", "").replace("igvf_catalog_client.models.", "")
    s = re.sub(r"<class '([\w.]+)'>", lambda m: m.group(1).split(".")[-1], s)
    s = re.sub(r"Annotated\[(\w+), Strict\(strict=True\)\]", r"Strict\1", s)
    s = s.replace("Annotated[str, Strict(strict=True)]", "StrictStr")
    return s

def prim(a):
    """compact JSON-ish type of an annotation"""
    o = typing.get_origin(a); args = typing.get_args(a)
    if o is typing.Annotated:
        base = prim(args[0]); meta = [m for m in args[1:] if not repr(m).startswith("Strict(")]
        extra = []
        for m in meta:
            for k in ("gt","ge","lt","le","min_length","max_length","pattern"):
                v = getattr(m, k, None)
                if v is not None: extra.append(f"{k}={v}")
            for mm in getattr(m, "metadata", []) or []:
                extra.append(repr(mm))
        return base + (f"({', '.join(extra)})" if extra else "")
    if o is typing.Union:
        parts = [prim(x) for x in args]
        nullable = "None" in parts
        parts = [p for p in parts if p != "None"]
        if sorted(parts) == ["float", "int"]: parts = ["number"]
        s = "|".join(parts)
        return s + ("?" if nullable else "")
    if o in (list, typing.List):
        return f"[{prim(args[0])}]"
    if o in (dict, typing.Dict):
        return f"{{{prim(args[0])}: {prim(args[1])}}}"
    if a is type(None): return "None"
    if isinstance(a, type):
        if issubclass(a, BaseModel): return a.__name__
        return {"str":"string","int":"int","float":"float","bool":"bool","object":"any"}.get(a.__name__, a.__name__)
    if a is typing.Any: return "any"
    return ann_str(a)

models = {}
def refs(a, out):
    o = typing.get_origin(a); args = typing.get_args(a)
    if isinstance(a, type) and issubclass(a, BaseModel): out.add(a.__name__); return
    for x in args:
        if isinstance(x, (type,)) or typing.get_origin(x) is not None: refs(x, out)

def walk(name):
    if name in models or not hasattr(M, name): return
    cls = getattr(M, name)
    src = inspect.getsource(cls)
    d = {"file": inspect.getsourcefile(cls).split("site-packages/")[-1]}
    models[name] = d
    sub = set()
    if hasattr(cls, "model_fields") and ("any_of_schemas" in cls.model_fields or "one_of_schemas" in cls.model_fields):
        kind = "anyOf" if "any_of_schemas" in cls.model_fields else "oneOf"
        d["kind"] = kind
        # ordered as the validators are tried
        order = re.findall(r"# data type: (.+)", src)
        d["schemas_in_try_order"] = order
        for k, f in cls.model_fields.items():
            if k.endswith("_validator"): refs(f.annotation, sub)
    else:
        d["kind"] = "object"
        props = getattr(cls, f"_{name}__properties", None)
        fields = []
        byalias = {(f.alias or k): (k, f) for k, f in cls.model_fields.items()}
        for alias in props or byalias:
            k, f = byalias[alias]
            ent = {"name": alias, "type": prim(f.annotation), "required": f.is_required()}
            nullable = "None" in str(f.annotation) or "Optional" in str(f.annotation)
            ent["nullable"] = nullable
            cons = [repr(m) for m in (f.metadata or []) if not repr(m).startswith("Strict(")]
            if cons: ent["constraints"] = cons
            if f.default is not None and not f.is_required() and not callable(f.default) and repr(f.default) != "PydanticUndefined": ent["default"] = f.default
            m = re.search(r"@field_validator\('%s'\)\s*\n\s*def \w+\(cls, value\):(.*?)return value" % re.escape(k), src, re.S)
            if m:
                en = re.search(r"not in set\(\[(.*?)\]\)", m.group(1))
                pat = re.search(r're\.match\(r"(.*?)"', m.group(1))
                if en: ent["enum"] = [x.strip().strip("'\"") for x in en.group(1).split(",")]
                if pat: ent["pattern"] = pat.group(1)
            fields.append(ent)
            refs(f.annotation, sub)
        d["members"] = fields
        d["extra_members_ignored"] = "additional_properties" not in src
    d["refs"] = sorted(sub)
    for s in sorted(sub): walk(s)

api = IgvfCatalogApi
paths = []
for mname, fn in inspect.getmembers(api, inspect.isfunction):
    if mname.startswith("_") or mname.endswith("_with_http_info") or mname.endswith("_without_preload_content"): continue
    ser = inspect.getsource(getattr(api, f"_{mname}_serialize"))
    body = inspect.getsource(fn)
    path = re.search(r"resource_path='([^']*)'", ser).group(1)
    http = re.search(r"method='(\w+)'", ser).group(1)
    wire = {}
    for w, kw in re.findall(r"_query_params\.append\(\('(\w+)', (\w+)\)\)", ser): wire[kw] = ("query", w)
    for w, kw in re.findall(r"_path_params\['(\w+)'\] = (\w+)", ser): wire[kw] = ("path", w)
    for kw in re.findall(r"_body_params = (\w+)", ser): wire[kw] = ("body", kw)
    sig = inspect.signature(fn)
    params = []
    for pn, p in sig.parameters.items():
        if pn == "self" or pn.startswith("_"): continue
        where, w = wire.get(pn, ("?", pn))
        params.append({"name": w, "in": where, "type": prim(p.annotation),
                       "required": p.default is inspect.Parameter.empty})
    rt = re.search(r"_response_types_map: Dict\[str, Optional\[str\]\] = \{(.*?)\}", body, re.S).group(1)
    rtypes = dict(re.findall(r"'(\w+)': \"?([^\",\n]+)\"?", rt))
    rtypes = {k: v.strip().strip("'\"") for k, v in rtypes.items()}
    doc = inspect.getdoc(fn) or ""
    desc = doc.split(":param")[0].strip().split("\n\n", 1)
    desc = desc[1].strip() if len(desc) > 1 else ""
    lim = re.search(r"can ?not exceed (\d+)", desc)
    paths.append({"path": path, "http": http, "client_method": mname, "params": params,
                  "response_types": rtypes, "doc_max_limit": int(lim.group(1)) if lim else None,
                  "description": re.sub(r"\s*<br>\s*", " | ", desc)})
    r200 = rtypes.get("200", "")
    inner = re.sub(r"^(List|Dict)\[(?:str, )?(.*)\]$", r"\2", r200)
    inner = re.sub(r"^List\[(.*)\]$", r"\1", inner)
    walk(inner)
    for p in params:
        if p["in"] == "body": walk(p["type"].rstrip("?"))
paths.sort(key=lambda p: p["path"])
# models only referenced by error responses
walk("InlineObject")
json.dump({"client": "igvf-catalog-client 1.3.0", "paths": paths, "models": dict(sorted(models.items()))},
          sys.stdout, indent=1)
