def positives(x):
    return x[x > 0]
