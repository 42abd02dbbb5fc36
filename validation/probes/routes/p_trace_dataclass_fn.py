# source: https://docs.jax.dev/en/latest/control-flow.html
# expect: JIT801 at line 12
# runtime: ERROR TracerBoolConversionError
import dataclasses
from typing import Callable

import jax
import jax.numpy as jnp


def clip(x):
    if x.max() > 1.0:
        return x / x.max()
    return x


@dataclasses.dataclass(frozen=True)
class Pipeline:
    transform: Callable


pipeline = Pipeline(clip)


@jax.jit
def run(x):
    return pipeline.transform(x)


print(run(jnp.arange(3.0)))
