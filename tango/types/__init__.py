"""Plain data types every layer shares (observations, goals, scene annotations, poses); no tango imports."""
