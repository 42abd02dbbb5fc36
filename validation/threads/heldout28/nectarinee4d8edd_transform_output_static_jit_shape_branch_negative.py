# source: https://github.com/joseprsm/nectarine/commit/e4d8eddd3e11f190524c56a7ea3d5d4d9ab6e91d
# expect: none
# runtime: COMPILES 2 CALLS 6
# why: _get_features is a @staticmethod @jax.jit whose Python if tests features.shape[-1], which is static under jit; the two feature tables (users without features, items with 4) compile once each and the next batches reuse them: 2 compiles for 6 calls.
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



# ---- nectarine/transform/output.py at e4d8edd ----
import jax
import jax.numpy as jnp
from flax import linen as nn


class TransformOutput(nn.Module):
    users: jnp.ndarray
    items: jnp.ndarray

    @nn.compact
    def __call__(
        self, user_id: jnp.ndarray, item_id: jnp.ndarray
    ) -> tuple[jnp.ndarray, jnp.ndarray]:
        user_features = self._get_features(user_id, self.users)
        item_features = self._get_features(item_id, self.items)
        # todo: include context features
        return user_features, item_features

    @staticmethod
    @jax.jit
    def _get_features(ids: jnp.ndarray, data: jnp.ndarray) -> jnp.ndarray:
        ids = ids.reshape(-1, 1)
        features = jnp.take(data, ids, axis=0)
        # todo: confirm features shape is always (1, 1, ..., n)
        if features.shape[-1] != 0:
            features = features.reshape(-1, features.shape[-1])
            return jnp.concatenate([ids, features], axis=1)
        return ids

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__name__}("
            f"users={self.users.shape}, "
            f"items={self.items.shape})"
        )


# ---- scaffolding: the transform layer applied to three training batches, as Recommender.__call__ does ----
import numpy as np  # scaffolding
_rs = np.random.RandomState(0)  # scaffolding
transform_layer = TransformOutput(users=jnp.zeros((50, 0), jnp.float32), items=jnp.asarray(_rs.rand(80, 4), jnp.float32))  # scaffolding: users without extra features, items with 4
calls = 0  # scaffolding
for step in range(3):  # scaffolding: three batches of 500 (user, item) ids
    user_id = jnp.asarray(_rs.randint(0, 50, (500, 1)))  # scaffolding
    item_id = jnp.asarray(_rs.randint(0, 80, (500, 1)))  # scaffolding
    user, item = transform_layer.apply({}, user_id, item_id)  # scaffolding: Recommender calls self.transform(user_id, item_id)
    calls += 2  # scaffolding: _get_features runs once for users, once for items
print(user.shape, item.shape)  # scaffolding
_report({"jit(_get_features)"}, calls)  # scaffolding
