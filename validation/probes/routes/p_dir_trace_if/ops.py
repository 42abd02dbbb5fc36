def relu(x):
    if x > 0:
        return x
    return 0.0 * x
