# source: https://github.com/haoliuhl/tux/pull/4
# expect: trace-time-error at line 81
# runtime: ERROR TypeError
# why: sjit's out-sharding path calls jax.eval_shape(fun, *args), which traces every argument including the ones sjit declares static, so a static int used as a shape raises TypeError during tracing.
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
import contextlib
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as PS


class MeshShardingHelper(object):  # scaffolding: reduced to what sjit uses (one-device mesh, PartitionSpec rules only)
    def __init__(self):  # scaffolding
        self.mesh = Mesh(np.array(jax.devices()[:1]), ('dp',))  # scaffolding

    def get_context(self, **kwargs):  # scaffolding: MeshShardingContext
        return contextlib.nullcontext()  # scaffolding

    def _split_static_dynamic_args(self, static_argnums, args):
        if static_argnums is None:
            return None, args
        static_args = tuple(args[i] for i in static_argnums)
        dynamic_args = tuple(args[i] for i in range(len(args)) if i not in static_argnums)
        return static_args, dynamic_args

    def match_sharding_rule(self, sharding_rules, pytree):  # scaffolding: the PartitionSpec branch of get_partition_spec only
        return jax.tree_util.tree_map(lambda x: NamedSharding(self.mesh, sharding_rules), pytree)  # scaffolding

    def sjit(self,
             fun,
             in_shardings=None,
             out_shardings=None,
             static_argnums=None,
             args_sharding_constraint=None,
             annotation_shardings=None,
             **kwargs):
        static_args_jitted_fn_cache = dict()

        def sharding_constrained_fun(*args):
            return fun(*args)  # scaffolding: args_sharding_constraint is None here

        def jit_fn_by_static_args(*args):
            static_args = tuple(args[i] for i in static_argnums) if static_argnums is not None else ()
            if static_args in static_args_jitted_fn_cache:
                return static_args_jitted_fn_cache[static_args]

            if in_shardings is None:
                matched_in_shardings = None
            else:
                if isinstance(in_shardings, list):
                    _in_shardings = tuple(in_shardings)
                else:
                    _in_shardings = in_shardings
                _, dynamic_args = self._split_static_dynamic_args(static_argnums, args)
                matched_in_shardings = self.match_sharding_rule(_in_shardings, dynamic_args)

            if out_shardings is None:
                matched_out_shardings = None
            else:
                with self.get_context(annotation_shardings=annotation_shardings):
                    output = jax.eval_shape(fun, *args)
                matched_out_shardings = self.match_sharding_rule(out_shardings, output)

            jitted_fn = jax.jit(
                sharding_constrained_fun,
                in_shardings=matched_in_shardings,
                out_shardings=matched_out_shardings,
                static_argnums=static_argnums,
                **kwargs
            )

            static_args_jitted_fn_cache[static_args] = jitted_fn
            return static_args_jitted_fn_cache[static_args]

        def call_fn(*args):
            jitted_fn = jit_fn_by_static_args(*args)
            with self.get_context(annotation_shardings=annotation_shardings):
                return jitted_fn(*args)

        return call_fn  # scaffolding: SJITCompiledFunction(call_fn=call_fn, ...)


def forward(params, x, seq_len):  # scaffolding: a step with a static int argument, as a training script passes to sjit
    pad = jnp.zeros((x.shape[0], seq_len - x.shape[1]))  # scaffolding
    return jnp.concatenate([x, pad], axis=1) @ params  # scaffolding


mesh = MeshShardingHelper()  # scaffolding
sforward = mesh.sjit(forward, in_shardings=PS(), out_shardings=PS(), static_argnums=(2,))  # scaffolding
try:  # scaffolding
    for _ in range(3):  # scaffolding
        out = sforward(jnp.ones((16, 4)), jnp.ones((8, 10)), 16)  # scaffolding
    _report({"jit(sharding_constrained_fun)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
