print("transition-host")
