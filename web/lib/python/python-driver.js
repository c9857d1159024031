// The Python side of <pe-code-exercise>'s worker (web/workers/python-worker.js),
// apart so that the Node tests run the very same driver in Pyodide.
//
// Python-side driver, defined once before any learner code runs. Each run
// gets a fresh namespace; print() goes to a capped buffer; exceptions come
// back as the learner's traceback, with the driver's own frames taken out.
export const DRIVER = String.raw`
import sys, io, json, math, traceback, linecache

_PE_FILE = "<your code>"
_PE_BLOCKED = ("js", "pyodide_js", "pyodide", "_pyodide", "_pyodide_core", "pyodide_http", "micropip")

class _PeBlocker:
    """Refuses the modules that bridge to JavaScript: the exercises run plain Python."""
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in _PE_BLOCKED:
            raise ImportError(
                f"module {name!r} is not available here: the exercises run plain Python "
                "(the standard library and math), in a sandbox without the page, the network or storage")
        return None

_PE_META_PATH = [_PeBlocker()] + [f for f in sys.meta_path if "JsFinder" not in type(f).__name__]

def _pe_guard():
    """Before every run: the bridges out of sys.modules, the import path as the driver set it
    (a learner's earlier run may have changed either)."""
    for name in list(sys.modules):
        if name.split(".")[0] in _PE_BLOCKED:
            del sys.modules[name]
    sys.meta_path[:] = _PE_META_PATH

_pe_guard()

class _PeOut(io.TextIOBase):
    """print()'s destination: keeps the first max_chars characters, then only counts."""
    def __init__(self, max_chars):
        self.parts, self.size, self.max_chars = [], 0, max_chars
    def writable(self):
        return True
    def write(self, s):
        s = str(s)
        room = self.max_chars - self.size
        if room > 0:
            self.parts.append(s[:room])
        self.size += len(s)
        return len(s)
    def text(self):
        return "".join(self.parts)

def _pe_plain(x, depth=0, budget=[0]):
    """A returned value as JSON-safe data; anything else is named by its type."""
    if depth == 0:
        budget[0] = 0
    budget[0] += 1
    if budget[0] > 100000 or depth > 20:
        return {"type": "too large"}
    if isinstance(x, bool):
        return {"type": "bool", "repr": repr(x)}
    if isinstance(x, int):
        return x if abs(x) < 2**53 else float(x)
    if isinstance(x, float):
        return x if math.isfinite(x) else {"float": repr(x)}
    if isinstance(x, (list, tuple)):
        return [_pe_plain(v, depth + 1) for v in x]
    r = repr(x)
    return {"type": type(x).__name__, "repr": r[:200]}

def _pe_traceback(e):
    """The exception as Python prints it, with only the frames of the learner's code."""
    te = traceback.TracebackException(type(e), e, e.__traceback__, compact=True)
    def trim(t):
        t.stack = traceback.StackSummary.from_list([f for f in t.stack if f.filename == _PE_FILE])
        for c in (t.__cause__, t.__context__):
            if c is not None:
                trim(c)
    trim(te)
    return "".join(te.format())

def _pe_execute(code, name, cases_json, result):
    try:
        compiled = compile(code, _PE_FILE, "exec")
    except SyntaxError as e:
        result["error"] = {"kind": "syntax", "traceback": "".join(traceback.format_exception_only(type(e), e))}
        return
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    try:
        exec(compiled, namespace)
    except BaseException as e:
        result["error"] = {"kind": "exception", "traceback": _pe_traceback(e)}
        return
    if not name:
        return
    fn = namespace.get(name)
    if not callable(fn):
        result["error"] = {"kind": "missing", "name": name}
        return
    for args in json.loads(cases_json):
        try:
            value = fn(*args)
        except BaseException as e:
            result["error"] = {"kind": "exception", "case": len(result["returns"]), "traceback": _pe_traceback(e)}
            return
        result["returns"].append(_pe_plain(value))
        # as Python prints it, for the learner to read (the page compares the plain value)
        result["reprs"].append(repr(value)[:4000])

def _pe_run(code, name, cases_json, max_output):
    """Runs the code (and the function on each case) -> JSON text: returns, error, stdout, stdoutChars."""
    out = _PeOut(max_output)
    result = {"returns": [], "reprs": [], "error": None}
    _pe_guard()
    linecache.cache[_PE_FILE] = (len(code), None, code.splitlines(True), _PE_FILE)
    saved = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = out
    try:
        _pe_execute(code, name, cases_json, result)
    finally:
        sys.stdout, sys.stderr = saved
    result["stdout"] = out.text()
    result["stdoutChars"] = out.size
    return json.dumps(result)
`;
