scale = 2.0
