# source: validation/threads/heldout5/jax196_python_if_on_traced_int.py (Python `if` on a traced value), the function imported from another module (`import ops`) and jitted as a call, no other transformation
# expect: JIT801 at ops.py line 5
# runtime: ERROR TracerBoolConversionError
import jax
import jax.numpy as jnp

import ops

prox = jax.jit(ops.soft_threshold)
print(prox(jnp.array([-2.0, 0.5, 3.0]), jnp.float32(1.0)))
