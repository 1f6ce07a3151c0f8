"""The web server: pages for people who play, organise and watch races."""
