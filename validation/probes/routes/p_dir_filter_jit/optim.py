import equinox as eqx


@eqx.filter_jit
def sgd(params, grads, lr):
    return params - lr * grads
