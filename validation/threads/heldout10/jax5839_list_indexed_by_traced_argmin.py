# source: https://github.com/jax-ml/jax/issues/5839
# expect: trace-time-error at line 54
# runtime: ERROR TracerIntegerConversionError
# why: inside the jitted match_faces3, jnp.argmin(...) is a tracer, and indexing the Python list dist with it calls __index__ on a tracer, which raises TracerIntegerConversionError.

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


# --- end harness ---
import time  # scaffolding

import jax.numpy as jnp  # scaffolding
import numpy as np  # scaffolding
from jax import jit  # scaffolding

database = [  # scaffolding: stand-in for the reporter's face database (name, descriptors)
    ("alice", [np.ones(4, np.float32), np.arange(4, dtype=np.float32)]),  # scaffolding
    ("bob", [np.full(4, 2.0, np.float32), np.eye(4, dtype=np.float32)[0]]),  # scaffolding
]  # scaffolding


def jax_cosine(a, b):  # scaffolding: the thread calls it without showing it
    return 1.0 - jnp.dot(a, b) / (jnp.linalg.norm(a) * jnp.linalg.norm(b))  # scaffolding


@jit
def match_faces3(desc):
        distances = np.empty((len(desc), len(database)))
        time1 = time.time()
        for i, descr in enumerate(desc):
            for j, identity in enumerate(database):
                dist = []
                for k, id_desc in enumerate(identity[1]):
                    dist.append(jax_cosine(descr, id_desc))
                distances[i][j] = dist[jnp.argmin(jnp.asarray(dist))]
        time2 = time.time() - time1
        print("time2",time2)
        distances=distances.tolist()
        return jnp.asarray(distances)


try:  # scaffolding
    match_faces3(jnp.ones((2, 4)))  # scaffolding
    _report({"jit(match_faces3)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
