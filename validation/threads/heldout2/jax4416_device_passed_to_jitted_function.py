# source: https://github.com/jax-ml/jax/issues/4416
# expect: trace-time-error at line 64
# runtime: ERROR TypeError
# why: matches_jit is called with a Device object (jax.devices()[0]) instead of the descriptors, and a jitted function's arguments must be arrays, so the call raises TypeError before tracing.

# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")


import io  # scaffolding
import time
import numpy as np
import jax
import jax.numpy as jnp
from jax import jit

f = io.StringIO()  # scaffolding: a log file in the thread
database = [("id0", np.ones((2, 4))), ("id1", np.zeros((2, 4)))]  # scaffolding
descriptors = np.ones((3, 4))  # scaffolding

def cosine_dist(a, b):  # scaffolding
    return 1 - np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-9)  # scaffolding

def match_faces3(desc):
        #print(descriptors)
        #print(database.shape)
        distances = np.empty((len(desc), len(database)))
        #print("Descriptors ", descriptors)
        f.write("Descriptors")
        f.write(str(desc))
        time1 = time.time()
        for i, descr in enumerate(desc):
            for j, identity in enumerate(database):
                dist = []
                for k, id_desc in enumerate(identity[1]):
                    dist.append(cosine_dist(descr, id_desc))
                distances[i][j] = dist[jnp.argmin(jnp.asarray(dist))]
        time2 = time.time() - time1
        print("time2",time2)
        distances=distances.tolist()
        return jnp.asarray(distances)

jax.device_put(descriptors,jax.devices()[0])
matches_jit = jit(match_faces3)
try:  # scaffolding
    matches_jit(jax.devices()[0])
    _report({"jit(match_faces3)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
