from bot.app import main

main()
