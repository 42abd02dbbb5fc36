# source: validation/threads/heldout6/jax7561_list_limits_as_static_arguments.py (a list as a static argument), the jitted function in another module, the list read from a config dict
# expect: JIT301 at line 13
# runtime: ERROR ValueError
import jax

from model import init_mlp

CONFIG = {"hidden": [4, 8, 2], "seed": 0}


def main():
    key = jax.random.PRNGKey(CONFIG["seed"])
    params = init_mlp(key, hidden=CONFIG["hidden"])
    print([p.shape for p in params])


main()
