KERNEL = (2, 2)
