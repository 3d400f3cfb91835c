import QuarryShell
print("quarry")
