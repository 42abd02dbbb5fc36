def inverse_decay(step, base=0.1):
    return base / (1 + step)
