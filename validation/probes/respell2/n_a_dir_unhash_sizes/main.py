# source: look-alike of p_a_dir_unhash_sizes: the sizes a tuple in the config
# expect: none
# runtime: COMPILES 1 CALLS 1
import jax

from model import init_mlp

CONFIG = {"hidden": (4, 8, 2), "seed": 0}


def main():
    key = jax.random.PRNGKey(CONFIG["seed"])
    params = init_mlp(key, hidden=CONFIG["hidden"])
    print([p.shape for p in params])


main()
